// docs/architecture.md is drawn from the code (issue 31): its import summary is generated from
// the import statements of src/ (test/helpers/floors.ts), the imports that run up a floor are
// the ones it names with their reasons, every domain's deps types are in its table, and every
// file it names exists.
import { describe, expect, test } from 'bun:test'
import { Glob } from 'bun'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, SOURCE_FILES, sourceGraph } from './helpers/source-imports'
import { DOMAINS, importSummary, upwardImports } from './helpers/floors'

const DOC = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8')
const graph = sourceGraph()

/** The generated part between `<!-- name:start -->` and `<!-- name:end -->`. */
function docsSection(name: string): string {
  const match = DOC.match(new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)\\n<!-- ${name}:end -->`))
  expect(match).not.toBeNull()
  return match![1]!
}

/** The `from` → `to` pairs the doc names under "Imports that run up a floor". */
function namedUpwardImports(): string[] {
  const start = DOC.indexOf('Imports that run up a floor')
  const section = DOC.slice(start, DOC.indexOf('\n#', start))
  return [...section.matchAll(/^- `([^`]+)` → `([^`]+)`/gm)].map((match) => `${match[1]} → ${match[2]}`)
}

const TEST_FILES = [...new Glob('test/**/*.{ts,tsx}').scanSync(ROOT)]

/**
 * The file names in backquotes that name no file. A name with a folder is read from the root,
 * from src/, or from the folder of its table row; a bare name must be a file of its row's folder,
 * or of src/ or test/ outside the tables.
 */
function missingFiles(doc: string): string[] {
  const missing: string[] = []
  for (const line of doc.split('\n')) {
    const folder = /^\| `([a-z-]+)\/` \|/.exec(line)?.[1]
    for (const [, name] of line.matchAll(/`([\w./-]+\.tsx?)`/g)) {
      const found = name!.includes('/')
        ? [name!, `src/${name}`, ...(folder ? [`src/${folder}/${name}`] : [])].some((path) => existsSync(join(ROOT, path)))
        : folder
          ? SOURCE_FILES.some((file) => file.startsWith(`src/${folder}/`) && file.endsWith(`/${name}`))
          : [...SOURCE_FILES, ...TEST_FILES].some((file) => file.endsWith(`/${name}`))
      if (!found) missing.push(folder ? `${folder}/: ${name}` : name!)
    }
  }
  return missing
}

describe('docs/architecture.md', () => {
  test('the import summary is what the imports of src/ are (regenerate with `bun test/helpers/floors.ts`)', () => {
    expect(docsSection('import-summary')).toBe(importSummary(graph))
  })

  test('the imports that run up a floor are the ones it names, each with its reason', () => {
    const upward = [...upwardImports(graph).keys()].sort()
    expect(namedUpwardImports().sort()).toEqual(upward)
    // At most a handful (issue 31).
    expect(upward.length).toBeLessThanOrEqual(5)
  })

  test('every deps type a domain defines is in its table, and every domain has a row', () => {
    const depsFiles = SOURCE_FILES.filter((file) => /^src\/[^/]+\/(?:service-)?deps\.ts$/.test(file))
    expect(depsFiles.length).toBeGreaterThanOrEqual(DOMAINS.length)
    const table = DOC.slice(DOC.indexOf('### What each domain takes'), DOC.indexOf('### Import summary'))
    for (const file of depsFiles) {
      for (const [, name] of readFileSync(join(ROOT, file), 'utf8').matchAll(/^export (?:interface|type) (\w+)/gm)) expect({ file, name, named: table.includes(`\`${name}\``) }).toEqual({ file, name, named: true })
    }
    for (const domain of DOMAINS) expect(table).toContain(`| \`${domain}/\` |`)
  })

  test('every file it names exists', () => {
    expect(missingFiles(DOC)).toEqual([])
    // The check sees a name that is gone, in a row and outside.
    expect(missingFiles('| `accounts/` | tables in `self-service-schema.ts` |\nthe bag (`src/domain-deps.ts`), `accounts/sync-writes.ts`')).toEqual(['accounts/: self-service-schema.ts', 'src/domain-deps.ts', 'accounts/sync-writes.ts'])
  })
})

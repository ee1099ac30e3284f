// What each file of src/ imports, read from the import statements themselves (type imports,
// re-exports, side-effect and dynamic imports included): the same reader as
// test/import-graph.test.ts, for the tests of the layers.
import { Glob } from 'bun'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

export const ROOT = join(import.meta.dir, '../..')
export const SOURCE_FILES = [...new Glob('src/**/*.{ts,tsx}').scanSync(ROOT)].sort()

// The sources are written without semicolons, one statement per line start.
const STATIC = /^(?:import|export)(?:\s+type)?\s*(?:\{[^}]*\}|\*(?:\s+as\s+\w+)?|\w+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+\w+))?)\s*from\s*['"]([^'"]+)['"]/gm
const BARE = /^import\s+['"]([^'"]+)['"]/gm
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

/** The project file (relative to the root) a relative specifier of `file` names, if it exists. */
function resolveSpecifier(file: string, specifier: string): string | undefined {
  const base = join(ROOT, dirname(file), specifier)
  const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate))
  return found && relative(ROOT, found)
}

/** The project source files (relative to the root) that `file` imports; assets and packages left out. */
export function sourceImportsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const specifiers = [STATIC, BARE, DYNAMIC].flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]!))
  return specifiers.filter((specifier) => specifier.startsWith('.')).flatMap((specifier) => resolveSpecifier(file, specifier) ?? [])
}

/** Every file of src/ with the source files it imports. */
export const sourceGraph = (): Map<string, string[]> => new Map(SOURCE_FILES.map((file) => [file, sourceImportsOf(file)]))

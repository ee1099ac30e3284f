// The Dockerfile's build stage copies only what it names; every file outside src/ that the
// source embeds (`import … with { type: 'text' }`) must be among them, or `bun build` fails there.
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const root = resolve(import.meta.dir, '../..')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  )
}

/** Repository paths of the files the source embeds from outside src/ (packages excluded). */
function embeddedOutsideSrc(): string[] {
  const found = new Set<string>()
  for (const file of sourceFiles(join(root, 'src'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)' with \{ type: 'text' \}/g)) {
      const path = relative(root, resolve(dirname(file), match[1]!))
      if (!path.startsWith('src/')) found.add(path)
    }
  }
  return [...found].sort()
}

/** Sources of the COPY lines of the build stage (before the second FROM). */
function buildStageCopies(): string[] {
  const stage = readFileSync(join(root, 'Dockerfile'), 'utf8').split(/^FROM /m)[1] ?? ''
  return [...stage.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((match) => match[1]!.trim().split(/\s+/))
}

describe('Dockerfile', () => {
  test('the build stage copies every file the binary embeds from outside src/', () => {
    const embedded = embeddedOutsideSrc()
    // The source does embed such files (the witness spec, the agent documents): the check has work to do.
    expect(embedded).toContain('docs/witness-spec.md')
    const copies = buildStageCopies()
    expect(copies).toContain('src')
    const missing = embedded.filter((path) => !copies.some((copy) => path === copy || path.startsWith(`${copy.replace(/\/$/, '')}/`)))
    expect(missing).toEqual([])
  })
})

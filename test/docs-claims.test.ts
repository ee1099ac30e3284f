// Claims in the documentation that the code must bear out (issue 24 item 19): error codes the
// docs name exist in the code, and the BUILD_INFO_FILE row says what really writes the file.
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { HALT_DETECTION_MICS } from '../src/calendar/mics'

const ROOT = join(import.meta.dir, '..')
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
const sources = (dir: string): string[] => readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [read(join(dir, entry.name))] : []))

describe('documentation claims', () => {
  test('every PAYMENT_* code the docs and README name is one the code answers', () => {
    const code = sources('src').join('\n')
    const documents = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]
    for (const document of documents) {
      for (const [name] of read(document).matchAll(/\bPAYMENT_[A-Z_]*[A-Z]\b/g)) {
        if (name === 'PAYMENT_REQUIRED' || code.includes(`'${name}'`) || code.includes(`"${name}"`)) continue
        expect(`${document} names ${name}`).toBe('a code the service answers')
      }
    }
  })

  test('BUILD_INFO_FILE: the README says .ci/run writes it after the build, which deletes any earlier one, and that is what they do', () => {
    const row = read('README.md').split('\n').find((line) => line.startsWith('| `BUILD_INFO_FILE`'))!
    expect(row).toContain('`.ci/run` writes')
    expect(row).toContain('`bun run build` alone deletes any earlier file and writes none')
    expect(JSON.parse(read('package.json')).scripts.build).toContain('rm -f dist/build-info.json')
    expect(read('.ci/run')).toMatch(/> dist\/build-info\.json/)
  })

  test('the README walk-through (and the examples of accounts.md and witness.md) reach the service through $BASE, set once', () => {
    const readme = read('README.md')
    const walkThrough = readme.slice(readme.indexOf('## Walk-through'), readme.indexOf('\n## ', readme.indexOf('## Walk-through') + 5))
    const commands = [...walkThrough.matchAll(/```sh\n([\s\S]*?)```/g)].map((block) => block[1]!).join('\n')
    expect(commands).toContain('BASE=http://localhost:8080')
    expect(commands.split('\n').filter((line) => line.includes('localhost:8080') && !line.startsWith('BASE='))).toEqual([])
    expect(commands.match(/"\$BASE\//g)!.length).toBeGreaterThan(50)
    for (const document of ['docs/accounts.md', 'docs/witness.md']) expect([document, read(document).includes('localhost:8080/')]).toEqual([document, false])
  })

  test('docs/market-state.md counts no venues (the list grows), and names the venues with a halt feed as the code does', () => {
    const text = read('docs/market-state.md')
    // A count such as "the 26 venues without a feed" goes stale when venues are added.
    expect(text.match(/(?<![\d/])\b\d+ (venues|exchanges)\b/g) ?? []).toEqual([])
    const feed = /as for every venue without a feed \(all but (\w+) and (\w+)\)/.exec(text.replace(/\s+/g, ' '))
    expect(feed?.slice(1).sort()).toEqual([...HALT_DETECTION_MICS].sort())
  })

  test('docs/calendars.md names every top-level member of the /v5/holidays answers', async () => {
    const { makeTestApp } = await import('./helpers/app')
    const app = makeTestApp({ now: '2026-06-01T12:00:00.000Z' })
    const section = read('docs/calendars.md').split('**`GET /v5/holidays?year=`**')[1]!.split('\n- ')[0]!
    for (const path of ['/v5/holidays?year=2026', '/v5/holidays/upcoming?days=30']) {
      const { body } = await app.json(path)
      for (const member of Object.keys(body)) expect({ path, member, documented: section.includes(`\`${member}\``) }).toEqual({ path, member, documented: true })
    }
    // And the OpenAPI description of each route says what the answer is made of.
    const openapi = (await app.json('/openapi.json')).body as { paths: Record<string, { get: { description?: string } }> }
    for (const path of ['/v5/holidays', '/v5/holidays/upcoming']) expect({ path, description: openapi.paths[path]!.get.description }).toEqual({ path, description: expect.stringContaining('`holidays` lists') })
  })
})

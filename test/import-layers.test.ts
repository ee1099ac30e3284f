// The floors of src/ (issue 31), read from the import statements themselves (type imports too):
// the kernel (crypto/, http/, store/ and the single files utc, clock, log, config, version)
// imports nothing above it — no domain, no catalogue, no dependency bag (deps.ts, domain-deps.ts),
// no wiring — and no domain imports src/wiring/. Whatever the kernel needs from above (the
// migrations' list, the key class of the request log) is handed in by the wiring or the app.
import { describe, expect, test } from 'bun:test'
import { SOURCE_FILES, sourceGraph } from './helpers/source-imports'

const KERNEL_FOLDERS = ['crypto', 'http', 'store']
const KERNEL_FILES = ['src/utc.ts', 'src/clock.ts', 'src/log.ts', 'src/config.ts', 'src/version.ts', 'src/assets.d.ts']
const DOMAINS = ['calendar', 'accounts', 'payments', 'audit', 'market', 'transparency', 'witness', 'mcp', 'delivery', 'board', 'discovery']

type Layer = 'kernel' | 'catalogue' | 'domain' | 'dependency types' | 'wiring' | 'top'

/** The floor a file of src/ is on; undefined for a file no floor names. */
function layerOf(file: string): Layer | undefined {
  const [, first, rest] = /^src\/([^/]+)(\/.*)?$/.exec(file) ?? []
  if (!first) return undefined
  if (rest === undefined) {
    if (KERNEL_FILES.includes(file)) return 'kernel'
    if (file === 'src/deps.ts' || file === 'src/domain-deps.ts') return 'dependency types'
    if (file === 'src/app.ts' || file === 'src/main.ts') return 'top'
    return undefined
  }
  if (KERNEL_FOLDERS.includes(first)) return 'kernel'
  if (first === 'catalogue') return 'catalogue'
  if (DOMAINS.includes(first)) return 'domain'
  if (first === 'wiring') return 'wiring'
  if (first === 'cli') return 'top'
  return undefined
}

/** The imports that break the floors' rules, as "file → target". */
function violations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = []
  for (const [file, targets] of graph) {
    const layer = layerOf(file)
    for (const target of targets) {
      const below = layerOf(target)
      if (layer === 'kernel' && below !== 'kernel') found.push(`${file} → ${target} (the kernel imports only the kernel)`)
      if ((layer === 'domain' || layer === 'catalogue') && below === 'wiring') found.push(`${file} → ${target} (no domain imports the wiring)`)
    }
  }
  return found
}

describe('the floors of src/', () => {
  const graph = sourceGraph()

  test('every file of src/ is on a named floor (a new folder is given one on purpose)', () => {
    expect(SOURCE_FILES.filter((file) => layerOf(file) === undefined)).toEqual([])
    // Not vacuous: the reader found the files of each floor and their imports.
    for (const layer of ['kernel', 'domain', 'dependency types', 'wiring', 'top'] as const) expect(SOURCE_FILES.filter((file) => layerOf(file) === layer).length).toBeGreaterThan(1)
    expect(graph.get('src/wiring/migrations.ts')).toEqual(expect.arrayContaining(['src/store/migrate.ts', 'src/accounts/schema.ts']))
  })

  test('the kernel imports no domain, no catalogue, no deps.ts or domain-deps.ts and no wiring; no domain imports the wiring', () => {
    expect(violations(graph)).toEqual([])
  })

  test('the rule sees a planted import: a kernel file importing a domain, the dependency bag or the wiring, a domain importing the wiring', () => {
    const planted = new Map(graph)
    planted.set('src/http/plugin.ts', [...graph.get('src/http/plugin.ts')!, 'src/accounts/plans.ts'])
    planted.set('src/store/migrate.ts', [...graph.get('src/store/migrate.ts')!, 'src/domain-deps.ts', 'src/wiring/migrations.ts'])
    planted.set('src/market/resolve.ts', [...graph.get('src/market/resolve.ts')!, 'src/wiring/stores.ts'])
    const real = violations(graph)
    expect(violations(planted).filter((found) => !real.includes(found)).sort()).toEqual([
      'src/http/plugin.ts → src/accounts/plans.ts (the kernel imports only the kernel)',
      'src/market/resolve.ts → src/wiring/stores.ts (no domain imports the wiring)',
      'src/store/migrate.ts → src/domain-deps.ts (the kernel imports only the kernel)',
      'src/store/migrate.ts → src/wiring/migrations.ts (the kernel imports only the kernel)',
    ])
  })
})

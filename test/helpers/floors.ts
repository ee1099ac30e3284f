// The floors of src/ (issue 31) as the tests read them: which floor each file is on, and the
// folder-to-folder import summary that docs/architecture.md carries between its markers
// (test/architecture-doc.test.ts compares them; `bun test/helpers/floors.ts` prints the summary).
import { sourceGraph } from './source-imports'

export const KERNEL_FOLDERS = ['crypto', 'http', 'store']
export const KERNEL_FILES = ['src/utc.ts', 'src/clock.ts', 'src/log.ts', 'src/config.ts', 'src/version.ts', 'src/assets.d.ts']
export const DOMAINS = ['calendar', 'accounts', 'payments', 'audit', 'market', 'transparency', 'witness', 'mcp', 'delivery', 'board', 'discovery']

// The dependency bag every domain once imported. Gone; a file of either name would be on the top
// floor (it would name every domain's services), so the rules keep the domains off it too.
export const BAG_FILES = ['src/deps.ts', 'src/domain-deps.ts']

export type Layer = 'kernel' | 'catalogue' | 'domain' | 'wiring' | 'top'
export const LAYERS: readonly Layer[] = ['kernel', 'catalogue', 'domain', 'wiring', 'top']

/** The floor a file of src/ is on; undefined for a file no floor names. */
export function layerOf(file: string): Layer | undefined {
  const [, first, rest] = /^src\/([^/]+)(\/.*)?$/.exec(file) ?? []
  if (!first) return undefined
  if (rest === undefined) {
    if (KERNEL_FILES.includes(file)) return 'kernel'
    if (file === 'src/app.ts' || file === 'src/main.ts' || BAG_FILES.includes(file)) return 'top'
    return undefined
  }
  if (KERNEL_FOLDERS.includes(first)) return 'kernel'
  if (first === 'catalogue') return 'catalogue'
  if (DOMAINS.includes(first)) return 'domain'
  if (first === 'wiring') return 'wiring'
  if (first === 'cli') return 'top'
  return undefined
}

/** A file of a domain's HTTP surface (its Elysia plugins): routes/, routes.ts, admin-routes.ts. */
export const isRouteFile = (file: string) => /\/routes\/|\/(?:[a-z-]+-)?routes\.ts$/.test(file)

/** What the summary counts a file under: its folder below src/ (`market/`), or the file itself (`app.ts`). */
export function unitOf(file: string): string {
  const [, first, rest] = /^src\/([^/]+)(\/.*)?$/.exec(file)!
  return rest === undefined ? first! : `${first}/`
}

/** The summary's units in floor order: the kernel, the catalogue, the domains, the wiring, the entry points. */
const UNITS = [...KERNEL_FOLDERS.map((folder) => `${folder}/`), ...KERNEL_FILES.map((file) => file.slice(4)), 'catalogue/', ...DOMAINS.map((domain) => `${domain}/`), 'wiring/', 'app.ts', 'main.ts', 'cli/']
const unitRank = (unit: string) => (UNITS.includes(unit) ? UNITS.indexOf(unit) : UNITS.length)
const byUnit = (a: string, b: string) => unitRank(a) - unitRank(b) || a.localeCompare(b)
const floorOfUnit = (unit: string) => layerOf(unit.endsWith('/') ? `src/${unit}x.ts` : `src/${unit}`)

/** Unit → the other units it imports (type imports too). */
export function unitImports(graph: ReadonlyMap<string, readonly string[]>): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>()
  for (const [file, targets] of graph) {
    const unit = unitOf(file)
    const reached = found.get(unit) ?? new Set<string>()
    found.set(unit, reached)
    for (const target of targets) if (unitOf(target) !== unit) reached.add(unitOf(target))
  }
  return found
}

/** The imports that run up a floor, "from → to" per unit pair, with the files that carry them. */
export function upwardImports(graph: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const [from, to] = [layerOf(file), layerOf(target)]
      if (!from || !to || LAYERS.indexOf(to) <= LAYERS.indexOf(from)) continue
      const pair = `${unitOf(file)} → ${unitOf(target)}`
      found.set(pair, [...(found.get(pair) ?? []), file])
    }
  }
  return found
}

const FLOOR_NAMES: Record<Layer, string> = { kernel: 'kernel', catalogue: 'catalogue', domain: 'domain', wiring: 'wiring', top: 'entry point' }

/** The import summary of docs/architecture.md: one row per unit, what it imports in floor order; ↑ marks an import up a floor. */
export function importSummary(graph: ReadonlyMap<string, readonly string[]> = sourceGraph()): string {
  const imports = unitImports(graph)
  const rows = [...imports.keys()].sort(byUnit).map((unit) => {
    const floor = floorOfUnit(unit)
    const reached = [...imports.get(unit)!].sort(byUnit).map((target) => {
      const up = floor && floorOfUnit(target) && LAYERS.indexOf(floorOfUnit(target)!) > LAYERS.indexOf(floor)
      return `\`${target}\`${up ? ' ↑' : ''}`
    })
    return `| ${floor ? FLOOR_NAMES[floor] : '?'} | \`${unit}\` | ${reached.join(', ') || '—'} |`
  })
  return ['| floor | folder or file | imports (type imports too) |', '|---|---|---|', ...rows].join('\n')
}

if (import.meta.main) console.log(importSummary())

// The floors of src/ (issue 31), read from the import statements themselves (type imports too):
// the kernel (crypto/, http/, store/ and the single files utc, clock, log, config, version)
// imports nothing above it — no domain, no catalogue, no dependency bag (deps.ts, domain-deps.ts),
// no wiring — and no domain imports src/wiring/. Whatever the kernel needs from above (the
// migrations' list, the key class of the request log) is handed in by the wiring or the app.
// No domain takes the whole bag either: each names the few services it uses in its own deps.ts,
// and AppDeps, which joins them, lives at the top in app.ts, where no domain reaches. Domains
// import each other's functions, never each other's routes. The floors: test/helpers/floors.ts.
import { describe, expect, test } from 'bun:test'
import { SOURCE_FILES, sourceGraph } from './helpers/source-imports'
import { BAG_FILES, DOMAINS, isRouteFile, layerOf } from './helpers/floors'

// Imports from a domain up to the top floor that are allowed, "file → target" with the reason.
// None is needed today: a domain that wants another's service adds it to its own deps type.
const DOMAIN_IMPORTS_OF_THE_TOP: Record<string, string> = {}

/** The imports that break the floors' rules, as "file → target". */
function violations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = []
  for (const [file, targets] of graph) {
    const layer = layerOf(file)
    for (const target of targets) {
      const below = layerOf(target)
      if (layer === 'kernel' && below !== 'kernel') found.push(`${file} → ${target} (the kernel imports only the kernel)`)
      if ((layer === 'domain' || layer === 'catalogue') && below === 'wiring') found.push(`${file} → ${target} (no domain imports the wiring)`)
      if ((layer === 'domain' || layer === 'catalogue') && below === 'top' && !(`${file} → ${target}` in DOMAIN_IMPORTS_OF_THE_TOP)) found.push(`${file} → ${target} (no domain imports the top: AppDeps in app.ts, main.ts, cli/, the dependency bag)`)
      if (layer === 'domain' && below === 'domain' && file.split('/')[1] !== target.split('/')[1] && isRouteFile(target)) found.push(`${file} → ${target} (no domain imports another domain's routes)`)
    }
  }
  return found
}

describe('the floors of src/', () => {
  const graph = sourceGraph()

  test('every file of src/ is on a named floor (a new folder is given one on purpose)', () => {
    expect(SOURCE_FILES.filter((file) => layerOf(file) === undefined)).toEqual([])
    // Not vacuous: the reader found the files of each floor and their imports.
    for (const layer of ['kernel', 'domain', 'wiring', 'top'] as const) expect(SOURCE_FILES.filter((file) => layerOf(file) === layer).length).toBeGreaterThan(1)
    expect(graph.get('src/wiring/migrations.ts')).toEqual(expect.arrayContaining(['src/store/migrate.ts', 'src/accounts/schema.ts']))
  })

  test('the kernel imports no domain, no catalogue, no deps.ts or domain-deps.ts and no wiring; no domain imports the wiring, the top or another domain\'s routes', () => {
    expect(violations(graph)).toEqual([])
  })

  test('no domain takes the whole dependency bag: none imports app.ts (AppDeps), src/deps.ts or src/domain-deps.ts; each names its own deps type', () => {
    const reached = [...graph].flatMap(([file, targets]) => (layerOf(file) === 'domain' || layerOf(file) === 'catalogue' ? targets.filter((target) => layerOf(target) === 'top').map((target) => `${file} → ${target}`) : []))
    expect(reached.filter((found) => !(found in DOMAIN_IMPORTS_OF_THE_TOP))).toEqual([])
    // An allowance nothing uses any more is taken off the list.
    expect(Object.keys(DOMAIN_IMPORTS_OF_THE_TOP).filter((allowed) => !reached.includes(allowed))).toEqual([])
    expect(SOURCE_FILES.filter((file) => BAG_FILES.includes(file))).toEqual([])
    for (const domain of DOMAINS) expect(SOURCE_FILES).toContain(`src/${domain}/deps.ts`)
    // Not vacuous: AppDeps is in app.ts, made of the domains' types, and the wiring builds it.
    expect(graph.get('src/app.ts')).toEqual(expect.arrayContaining(DOMAINS.map((domain) => `src/${domain}/deps.ts`)))
    expect(graph.get('src/wiring/assemble.ts')).toContain('src/app.ts')
  })

  test('the rule sees a planted import: a kernel file importing a domain, the dependency bag or the wiring, a domain importing the wiring, AppDeps, the bag or another domain\'s routes', () => {
    const planted = new Map(graph)
    planted.set('src/http/plugin.ts', [...graph.get('src/http/plugin.ts')!, 'src/accounts/plans.ts'])
    planted.set('src/store/migrate.ts', [...graph.get('src/store/migrate.ts')!, 'src/domain-deps.ts', 'src/wiring/migrations.ts'])
    planted.set('src/market/resolve.ts', [...graph.get('src/market/resolve.ts')!, 'src/wiring/stores.ts'])
    planted.set('src/market/issue.ts', [...graph.get('src/market/issue.ts')!, 'src/app.ts', 'src/domain-deps.ts'])
    planted.set('src/audit/routes/index.ts', [...graph.get('src/audit/routes/index.ts')!, 'src/deps.ts'])
    planted.set('src/catalogue/plans.ts', [...graph.get('src/catalogue/plans.ts')!, 'src/main.ts'])
    planted.set('src/discovery/text-documents.ts', [...graph.get('src/discovery/text-documents.ts')!, 'src/market/routes/safe-to-trade-shared.ts', 'src/witness/routes.ts', 'src/discovery/routes/health.ts'])
    const real = violations(graph)
    expect(violations(planted).filter((found) => !real.includes(found)).sort()).toEqual([
      'src/audit/routes/index.ts → src/deps.ts (no domain imports the top: AppDeps in app.ts, main.ts, cli/, the dependency bag)',
      'src/catalogue/plans.ts → src/main.ts (no domain imports the top: AppDeps in app.ts, main.ts, cli/, the dependency bag)',
      "src/discovery/text-documents.ts → src/market/routes/safe-to-trade-shared.ts (no domain imports another domain's routes)",
      "src/discovery/text-documents.ts → src/witness/routes.ts (no domain imports another domain's routes)",
      'src/http/plugin.ts → src/accounts/plans.ts (the kernel imports only the kernel)',
      'src/market/issue.ts → src/app.ts (no domain imports the top: AppDeps in app.ts, main.ts, cli/, the dependency bag)',
      'src/market/issue.ts → src/domain-deps.ts (no domain imports the top: AppDeps in app.ts, main.ts, cli/, the dependency bag)',
      'src/market/resolve.ts → src/wiring/stores.ts (no domain imports the wiring)',
      'src/store/migrate.ts → src/domain-deps.ts (the kernel imports only the kernel)',
      'src/store/migrate.ts → src/wiring/migrations.ts (the kernel imports only the kernel)',
    ])
  })
})

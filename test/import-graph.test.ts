// The shape of src/ that issue 23 asks for, read from the import statements themselves (type
// imports included): no import runs in a circle; only the entry points reach the wiring that picks
// a backend; a module that takes the app's dependencies never imports a database driver; the
// HTTP layer does not reach into accounts (its request-auth helper takes what a key is worth as a
// function handed in).
import { describe, expect, test } from 'bun:test'
import { Glob } from 'bun'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

const ROOT = join(import.meta.dir, '..')
const FILES = [...new Glob('src/**/*.{ts,tsx}').scanSync(ROOT)].sort()

// Static imports and re-exports (`import type` and `export type` too), side-effect imports and
// dynamic imports. The sources are written without semicolons, one statement per line start.
const STATIC = /^(?:import|export)(?:\s+type)?\s*(?:\{[^}]*\}|\*(?:\s+as\s+\w+)?|\w+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+\w+))?)\s*from\s*['"]([^'"]+)['"]/gm
const BARE = /^import\s+['"]([^'"]+)['"]/gm
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

/** What `file` imports: project source files (relative to the root) and packages (as written). */
function importsOf(file: string): { files: string[]; packages: string[] } {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const specifiers = [STATIC, BARE, DYNAMIC].flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]!))
  const files: string[] = []
  const packages: string[] = []
  for (const specifier of specifiers) {
    if (!specifier.startsWith('.')) {
      packages.push(specifier)
      continue
    }
    const found = resolveSpecifier(file, specifier)
    if (found) files.push(found)
    // An asset embedded in the binary (CSS, JSON, a font) imports nothing.
    else if (!existsSync(join(ROOT, dirname(file), specifier))) throw new Error(`${file}: cannot resolve ${specifier}`)
  }
  return { files, packages }
}

/** The project file (relative to the root) a relative specifier of `file` names, if it exists. */
function resolveSpecifier(file: string, specifier: string): string | undefined {
  const base = join(ROOT, dirname(file), specifier)
  const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate))
  return found && relative(ROOT, found)
}

const GRAPH = new Map(FILES.map((file) => [file, importsOf(file)]))

/** The import circles (strongly connected components of more than one file, or a file importing itself). */
function circles(): string[][] {
  const order = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  let next = 0
  const visit = (file: string) => {
    order.set(file, next)
    low.set(file, next++)
    stack.push(file)
    onStack.add(file)
    for (const target of GRAPH.get(file)!.files) {
      if (!order.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file)!, low.get(target)!))
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, order.get(target)!))
    }
    if (low.get(file) !== order.get(file)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== file)
    if (component.length > 1 || GRAPH.get(file)!.files.includes(file)) found.push(component.sort())
  }
  for (const file of FILES) if (!order.has(file)) visit(file)
  return found
}

const importers = (predicate: (target: string) => boolean) => FILES.filter((file) => GRAPH.get(file)!.files.some(predicate))
// The kernel: the folders and files every layer may import; it imports no domain.
const KERNEL = (target: string) => ['src/crypto/', 'src/http/', 'src/store/'].some((folder) => target.startsWith(folder)) || ['src/utc.ts', 'src/clock.ts', 'src/log.ts', 'src/config.ts', 'src/version.ts'].includes(target)
// The dependency types: what each domain's functions take (AppDeps, in app.ts, joins them).
const DEPS_TYPES = FILES.filter((file) => /^src\/[^/]+\/(?:service-)?deps\.ts$/.test(file))
const DRIVER = (text: string) => /from\s+['"]bun:sqlite['"]/.test(text) || /import\s+(?:type\s+)?\{[^}]*\bSQL\b[^}]*\}\s+from\s+['"]bun['"]/.test(text)

describe('import graph of src/', () => {
  test('the reader sees every import: type imports, re-exports and multi-line lists included', () => {
    // A re-export (cli/database.ts's only import), a multi-line import list (mcp/dispatch.ts) and
    // the type imports of AppDeps (app.ts: the domains' deps types, imported for nothing else).
    expect(GRAPH.get('src/cli/database.ts')!.files).toEqual(['src/wiring/cli.ts'])
    expect(GRAPH.get('src/mcp/dispatch.ts')!.files).toContain('src/mcp/protocol.ts')
    expect(GRAPH.get('src/app.ts')!.files).toEqual(expect.arrayContaining(['src/market/deps.ts', 'src/delivery/service-deps.ts']))
    // Everything Bun itself sees (value imports) is seen here too.
    const transpiler = new Bun.Transpiler({ loader: 'ts' })
    for (const file of FILES.filter((name) => name.endsWith('.ts'))) {
      const { files, packages } = GRAPH.get(file)!
      const scanned = transpiler.scanImports(readFileSync(join(ROOT, file), 'utf8')).map((entry) => entry.path)
      const missed = scanned.filter((path) => (path.startsWith('.') ? !files.includes(resolveSpecifier(file, path) ?? path) && !existsSync(join(ROOT, dirname(file), path)) : !packages.includes(path)))
      expect({ file, missed }).toEqual({ file, missed: [] })
    }
  })

  test('no import runs in a circle, not even a type import', () => {
    expect(circles()).toEqual([])
  })

  test('only the entry points (main.ts, the operator commands) and the wiring itself import src/wiring/', () => {
    const outside = importers((target) => target.startsWith('src/wiring/')).filter((file) => file !== 'src/main.ts' && !file.startsWith('src/cli/') && !file.startsWith('src/wiring/'))
    expect(outside).toEqual([])
  })

  test('the dependency types (every domain\'s deps.ts, delivery/service-deps.ts) are types only', () => {
    expect(DEPS_TYPES.length).toBeGreaterThan(10)
    for (const file of DEPS_TYPES) {
      const text = readFileSync(join(ROOT, file), 'utf8')
      const values = [...text.matchAll(/^(?:import|export)\s+(?!type\b|interface\b)[^\n]*/gm)].map((match) => match[0])
      expect({ file, values }).toEqual({ file, values: [] })
    }
  })

  test('a module that takes the app\'s dependencies (services, routes, jobs) imports no database driver', () => {
    const takingDeps = importers((target) => DEPS_TYPES.includes(target)).filter((file) => !file.startsWith('src/wiring/') && file !== 'src/main.ts')
    expect(takingDeps.length).toBeGreaterThan(20)
    expect(takingDeps.filter((file) => DRIVER(readFileSync(join(ROOT, file), 'utf8')))).toEqual([])
    // Route files take their stores through the dependencies, never a driver or a PostgreSQL store.
    const routes = FILES.filter((file) => file.includes('/routes/') || file.endsWith('/routes.ts'))
    expect(routes.filter((file) => DRIVER(readFileSync(join(ROOT, file), 'utf8')) || GRAPH.get(file)!.files.some((target) => target.endsWith('-postgres.ts')))).toEqual([])
  })

  test('the HTTP layer does not reach into accounts: the request-auth helper imports nothing of it, the request log only the key prefixes', () => {
    expect(GRAPH.get('src/http/auth.ts')!.files.filter((target) => !target.startsWith('src/http/') && !target.startsWith('src/crypto/'))).toEqual([])
    const reached = FILES.filter((file) => file.startsWith('src/http/')).flatMap((file) => GRAPH.get(file)!.files.filter((target) => target.startsWith('src/accounts/') && target !== 'src/accounts/plans.ts').map((target) => `${file} → ${target}`))
    expect(reached).toEqual([])
  })

  test('the catalogue (what the service sells) imports only itself and the kernel: no domain, no wiring, not the dependency types', () => {
    const catalogue = FILES.filter((file) => file.startsWith('src/catalogue/'))
    expect(catalogue.length).toBeGreaterThan(5)
    const reached = catalogue.flatMap((file) => GRAPH.get(file)!.files.filter((target) => !target.startsWith('src/catalogue/') && !KERNEL(target)).map((target) => `${file} → ${target}`))
    expect(reached).toEqual([])
  })

  test('accounts imports nothing from payments (payments uses accounts through its entry points)', () => {
    const reached = FILES.filter((file) => file.startsWith('src/accounts/')).flatMap((file) => GRAPH.get(file)!.files.filter((target) => target.startsWith('src/payments/')).map((target) => `${file} → ${target}`))
    expect(reached).toEqual([])
  })
})


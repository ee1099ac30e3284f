// `bun run test`: the whole suite as three `bun test` processes side by side, then one summary.
// Why: most of the suite's time is waiting (nodes' clocks running to midnight, leases expiring,
// browsers and child processes starting), not CPU: one process after another took 7–10 minutes
// on a 2-core machine. The groups split along what the files start: the multi-node files (child
// processes on one PostgreSQL, and the workers of test/workers/ on one SQLite file), the browser
// and end-to-end files (Chromium, the service as a child process), and the in-process rest; each
// process has its own PostgreSQL cluster (test/helpers/postgres-cluster.ts) and every file picks
// free ports and its own temp directories.
// A line is printed as each file ends (test/runner/progress.ts), each group's whole output as the
// group ends, and the combined summary last (.ci/run reads its counts).
// With arguments (`bun run test test/audit`), it is plain `bun test` on them; `--grouped <paths>`
// runs the test files under those paths the grouped way instead.
// First, what the tests need and the machine lacks is installed (.ci/install-test-deps).
// SIGTERM or SIGINT stops every `bun test` and what it started (test/runner/processes.ts).
import { Glob } from 'bun'
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { progressLine, ProgressReader } from './runner/progress'
import { stopTree } from './runner/processes'

const ROOT = resolve(import.meta.dir, '..')
const TIMEOUT = ['--timeout', '20000']

// Everything this script prints goes through one queue of awaited writes: a group's output is
// hundreds of kilobytes, and a pipe (`| tee` in .ci/run) takes it in parts, so an unawaited
// write could be overtaken by the next line or cut short by process.exit (seen once).
let printing: Promise<unknown> = Promise.resolve()
const print = (text: string) => (printing = printing.then(() => Bun.write(Bun.stdout, text.endsWith('\n') ? text : `${text}\n`)))

/** Groups run side by side; a file goes to the first group that matches it, else to "others". */
const GROUPS: { name: string; files: RegExp }[] = [
  { name: 'multi-node', files: /^test\/(nodes|workers)\// },
  { name: 'browser and end-to-end', files: /^test\/(browser|e2e)\// },
]

interface GroupResult {
  name: string
  files: number
  output: string
  exitCode: number
  seconds: number
}

/** The `bun test` processes running now, each the leader of its own session (spawned detached). */
const running = new Set<number>()
let stopping = false

/** A heartbeat for a file that runs long: nothing else would be printed meanwhile. */
const HEARTBEAT_MS = 60_000

async function runGroup(name: string, files: string[]): Promise<GroupResult> {
  const started = performance.now()
  // One stream for stdout and stderr, in the order bun test wrote them.
  const child = Bun.spawn(['sh', '-c', 'exec "$0" test "$@" 2>&1', process.execPath, ...TIMEOUT, ...files], {
    cwd: ROOT,
    env: { ...process.env, TZ: 'UTC' },
    stdout: 'pipe',
    stdin: 'ignore',
    detached: true,
  })
  running.add(child.pid)
  let finished = 0
  const progress = new ProgressReader((done) => void print(progressLine(name, ++finished, files.length, done)))
  const heartbeat = setInterval(() => {
    const now = progress.running()
    if (now && now.seconds * 1000 >= HEARTBEAT_MS) print(`[${name} ${finished + 1}/${files.length}] ${now.file}: still running after ${Math.round(now.seconds)} s (${now.pass} passed so far)`)
  }, HEARTBEAT_MS)
  const chunks: Uint8Array[] = []
  for await (const chunk of child.stdout as ReadableStream<Uint8Array>) {
    chunks.push(chunk)
    progress.feed(chunk)
  }
  progress.end()
  clearInterval(heartbeat)
  const exitCode = await child.exited
  running.delete(child.pid)
  return { name, files: files.length, output: Buffer.concat(chunks).toString('utf8'), exitCode, seconds: (performance.now() - started) / 1000 }
}

/** Stops every `bun test` and what it started, then exits as a process killed by `signal` would. */
async function stopOn(signal: 'SIGTERM' | 'SIGINT'): Promise<never> {
  const code = signal === 'SIGINT' ? 130 : 143
  if (stopping) process.exit(code)
  stopping = true
  await print(`\n!! ${signal}: stopping ${running.size} bun test process${running.size === 1 ? '' : 'es'} and what they started`)
  const stopped = await stopTree([...running])
  await print(`!! stopped ${stopped} process${stopped === 1 ? '' : 'es'}; no summary`)
  process.exit(code)
}
process.on('SIGTERM', () => void stopOn('SIGTERM'))
process.on('SIGINT', () => void stopOn('SIGINT'))

/** The counts of bun test's closing lines (" 12 pass", " 1 fail", " 3 expect() calls", …) just above "Ran N tests". */
function counts(output: string): Map<string, number> | null {
  const lines = output.split('\n')
  let ran = lines.length - 1
  while (ran >= 0 && !/^Ran \d+ tests? across \d+ files?\./.test(lines[ran]!)) ran--
  if (ran < 0) return null
  const found = new Map<string, number>()
  for (let i = ran - 1; i >= 0; i--) {
    const match = /^ *(\d+) (pass|fail|skip|todo|errors?|snapshots?|expect\(\) calls)$/.exec(lines[i]!)
    if (!match) break
    found.set(match[2]!.replace(/^(error|snapshot)s$/, '$1'), Number(match[1]))
  }
  return found
}

// What the tests need beyond bun install (PostgreSQL, nginx, Chromium), installed when missing.
const deps = Bun.spawnSync(['bash', resolve(ROOT, '.ci/install-test-deps')], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
const depsSaid = `${deps.stdout.toString()}${deps.stderr.toString()}`.trim()
if (depsSaid) await print(depsSaid)

const args = process.argv.slice(2)
if (args.length && args[0] !== '--grouped') {
  const child = Bun.spawn([process.execPath, 'test', ...TIMEOUT, ...args], { cwd: ROOT, env: { ...process.env, TZ: 'UTC' }, stdio: ['inherit', 'inherit', 'inherit'], detached: true })
  running.add(child.pid)
  const code = await child.exited
  running.delete(child.pid)
  // A stop under way exits with the signal's code once it is done.
  if (!stopping) process.exit(code)
  await new Promise(() => {})
}

/** The test files under `paths` (files or directories of the project); without any, all of test/ but its fixtures. */
function testFiles(paths: string[]): string[] {
  const glob = new Glob('**/*.test.ts')
  const under = (dir: string) => [...glob.scanSync({ cwd: resolve(ROOT, dir) })].filter((file) => !file.includes('node_modules')).map((file) => `${dir.replace(/\/+$/, '')}/${file}`)
  if (!paths.length) return under('test').filter((file) => !file.startsWith('test/fixtures/'))
  return paths.flatMap((path) => (statSync(resolve(ROOT, path)).isDirectory() ? under(path) : [path]))
}

const all = testFiles(args.slice(1)).sort()
const groupOf = (file: string) => GROUPS.find((group) => group.files.test(file))?.name ?? 'others'
const groups = [...GROUPS.map((group) => group.name), 'others'].map((name) => ({ name, files: all.filter((file) => groupOf(file) === name) })).filter((group) => group.files.length)
print(`bun test: ${all.length} files in ${groups.length} processes side by side (${groups.map((group) => `${group.name}: ${group.files.length}`).join(', ')}); a line as each file ends, each group's output when it ends`)

const started = performance.now()
const results: GroupResult[] = []
// Printed as each group ends, so the first group's failures are readable while the others run.
await Promise.all(groups.map((group) => runGroup(group.name, group.files).then((result) => {
  if (stopping) return
  results.push(result)
  print(`\n===== group "${result.name}" (${result.files} files): exit ${result.exitCode} after ${result.seconds.toFixed(1)} s =====`)
  print(result.output)
})))
// Stopped by a signal: no summary (stopOn exits when everything is stopped).
if (stopping) await new Promise(() => {})

const total = new Map<string, number>()
let broken = 0
for (const result of results) {
  const found = counts(result.output)
  if (!found) {
    // A process that died before its summary (a crash, a kill) is a failure, not a silent gap.
    print(`!! group "${result.name}" ended (exit ${result.exitCode}) without bun test's summary`)
    broken++
    continue
  }
  for (const [kind, n] of found) total.set(kind, (total.get(kind) ?? 0) + n)
  if (result.exitCode !== 0 && !found.get('fail') && !found.get('error')) broken++
}
const failed = (total.get('fail') ?? 0) + broken
const testsRun = (total.get('pass') ?? 0) + (total.get('fail') ?? 0) + (total.get('skip') ?? 0) + (total.get('todo') ?? 0)
print(`\n===== all ${groups.length} groups =====`)
print(` ${total.get('pass') ?? 0} pass`)
if (total.get('skip')) print(` ${total.get('skip')} skip`)
if (total.get('todo')) print(` ${total.get('todo')} todo`)
print(` ${failed} fail`)
if (total.get('error')) print(` ${total.get('error')} error`)
print(` ${total.get('expect() calls') ?? 0} expect() calls`)
print(`Ran ${testsRun} tests across ${all.length} files. [${((performance.now() - started) / 1000).toFixed(2)}s]`)
await printing
process.exit(failed || results.some((result) => result.exitCode !== 0) ? 1 : 0)

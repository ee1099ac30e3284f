// One throw-away PostgreSQL cluster per test run (bun test runs every file in one process):
// initdb + pg_ctl as the `postgres` system user (PostgreSQL refuses to run as root), on a free
// loopback port, in a temp directory. Started on first use, stopped and removed when the run ends
// (test/setup.ts) or the process exits, whatever the tests did; a cluster left behind by a run
// that was killed (-9) is stopped and removed by the next run (its directory names the pid).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, chownSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const CLUSTER_PREFIX = 'openbell-test-pg-'

export interface Cluster {
  port: number
  dir: string
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database: string): string
  /** Stops the server (immediate: like a crash) and starts it again on the same port (database-down tests). */
  stop(): void
  start(): void
  /** Stops it and removes its directory (also done at exit). */
  destroy(): void
}

function binDir(): string {
  for (const version of ['17', '16', '15', '14']) {
    const dir = `/usr/lib/postgresql/${version}/bin`
    if (existsSync(join(dir, 'pg_ctl'))) return dir
  }
  throw new Error('PostgreSQL is not installed (apt-get install -y postgresql); bun run test installs it when it can (.ci/install-test-deps)')
}

/** Runs a command as the postgres user when we are root (PostgreSQL refuses root), else as ourselves. */
function runAsPostgres(args: string[]): { ok: boolean; output: string } {
  const command = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', ...args] : args
  const result = Bun.spawnSync(command, { stdout: 'pipe', stderr: 'pipe' })
  return { ok: result.exitCode === 0, output: `${result.stdout.toString()}${result.stderr.toString()}` }
}

function freePort(): number {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = server.port!
  server.stop(true)
  return port
}

const pidAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function stopCluster(dir: string): void {
  const data = join(dir, 'data')
  if (existsSync(join(data, 'postmaster.pid'))) runAsPostgres([join(binDir(), 'pg_ctl'), '-D', data, 'stop', '-m', 'immediate', '-w'])
  rmSync(dir, { recursive: true, force: true })
}

/** Clusters of earlier runs whose process is gone (killed before its exit handler ran). */
function sweepOrphans(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(CLUSTER_PREFIX)) continue
    const dir = join(tmpdir(), name)
    try {
      const owner = Number(readFileSync(join(dir, 'owner.pid'), 'utf8'))
      if (owner && !pidAlive(owner)) stopCluster(dir)
    } catch {
      // No owner file yet: a run starting right now; leave it.
    }
  }
}

let cluster: Cluster | null = null

// Bun's test runner does not emit process 'exit' when a run ends, so the exit handler below only
// helps scripts (the bench); the test preload stops this process's clusters in its run-wide afterAll.
const cleanups = new Set<() => void>()

/** Stops and removes every cluster this process started (the test preload's afterAll calls it). */
export function stopClustersOfThisProcess(): void {
  for (const cleanup of [...cleanups]) cleanup()
  cluster = null
}

/** The run's shared cluster, started on first use. */
export function postgresCluster(): Cluster {
  cluster ??= startCluster()
  return cluster
}

/**
 * A cluster of its own (for a test that stops the server); removed at exit like the shared one.
 * `durable`: commits wait for the WAL (synchronous_commit on), so a crash-like stop loses no
 * committed transaction, as on a real server; the shared cluster skips that wait for speed.
 * `serverDefaults`: PostgreSQL's own durability settings (fsync, full-page writes, synchronous
 * commit all on), for benchmarks that compare with SQLite as a server would run.
 * `settings`: more server settings (`-c name=value`).
 */
export function startCluster(options: { durable?: boolean; serverDefaults?: boolean; settings?: Record<string, string> } = {}): Cluster {
  sweepOrphans()
  const bin = binDir()
  const dir = mkdtempSync(join(tmpdir(), CLUSTER_PREFIX))
  writeFileSync(join(dir, 'owner.pid'), String(process.pid))
  if (process.getuid?.() === 0) {
    const ids = Bun.spawnSync(['id', '-u', 'postgres']).stdout.toString().trim()
    const gid = Bun.spawnSync(['id', '-g', 'postgres']).stdout.toString().trim()
    chownSync(dir, Number(ids), Number(gid))
  }
  const data = join(dir, 'data')
  // Removed at exit even when a test throws or the run is interrupted.
  const cleanup = () => {
    cleanups.delete(cleanup)
    process.removeListener('exit', cleanup)
    stopCluster(dir)
  }
  cleanups.add(cleanup)
  process.once('exit', cleanup)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130))
  const init = runAsPostgres([join(bin, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8'])
  if (!init.ok) throw new Error(`initdb failed: ${init.output}`)
  const serve = (port: number) => {
    // fsync off: the machine never crashes under a test cluster (a stopped server's WAL is still
    // in the page cache); synchronous_commit off unless `durable`.
    const commit = options.durable ? '' : ' -c synchronous_commit=off'
    const speed = options.serverDefaults ? '' : ` -c fsync=off${commit} -c full_page_writes=off`
    const more = Object.entries(options.settings ?? {}).map(([name, value]) => ` -c ${name}=${value}`).join('')
    const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${speed} -c max_connections=200${more}`
    return runAsPostgres([join(bin, 'pg_ctl'), '-D', data, '-l', join(dir, 'log'), '-o', settings, '-w', 'start'])
  }
  for (let attempt = 0; ; attempt++) {
    const port = freePort()
    const started = serve(port)
    if (started.ok) {
      return {
        port,
        dir,
        url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
        stop: () => void runAsPostgres([join(bin, 'pg_ctl'), '-D', data, 'stop', '-m', 'immediate', '-w']),
        start: () => {
          const again = serve(port)
          if (!again.ok) throw new Error(`pg_ctl start failed: ${again.output}`)
        },
        destroy: cleanup,
      }
    }
    // Another process took the port between the probe and the start: try another.
    if (attempt >= 3) throw new Error(`pg_ctl start failed: ${started.output}\n${existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8') : ''}`)
  }
}

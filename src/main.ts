// The only place that reads the environment, opens files, starts timers and listens.
// `openbell` serves; `openbell keys|calendars …` are operator commands using the same code.
import { loadConfig, ConfigError, type Config } from './config'
import { createLogger, type Logger } from './log'
import { systemClock } from './clock'
import { MigrationError } from './store/migrate'
import { loadSigner } from './crypto/key-file'
import { buildApp } from './app'
import { runCalendarsCommand } from './cli/calendars'
import { runKeysCommand } from './cli/keys'
import { parseHealthcheckArgs, runHealthcheck } from './cli/healthcheck'
import { openBackend, openSqlite, type OpenedBackend } from './wiring/open'
import { existsSync, readFileSync } from 'node:fs'
import { DatabaseUnavailable } from './store/postgres'
import { SigningKeyMismatch } from './store/key-record'
import { LogListError } from './witness/tlog/logs'
import { WitnessPolicyError } from './transparency/witness-policy'
import { runLogCommand } from './cli/log'
import { CalendarRegistry } from './calendar/registry'
import { startCalendarJobs } from './calendar/jobs'
import { recoverPendingApply } from './calendar/updates/apply'
import { parseUpstreamKey } from './calendar/updates/services'
import { runCalendarUpdatesCommand } from './cli/calendar-updates'
import { OverrideService } from './market/overrides/service'
import { runOverridesCommand } from './cli/overrides'
import { checkHost, ListenError, listenOptions, listenOrFail, probePort } from './http/listen'
import { openCliStores, takeInitFlag } from './cli/database'
import { runBackupCommand } from './cli/backup'
import { USAGE } from './cli/usage'
import { runMailCommand } from './cli/mail'
import { startAccountJobs } from './accounts/jobs'
import { runDbCommand } from './cli/db-copy'
import type { AppDeps } from './app'
import { InstanceLocked, lockDataDir, type InstanceLock } from './store/instance-lock'
import { admitted, joinSupervisor, workerRole, type WorkerRole } from './wiring/worker'
import { supervise } from './wiring/supervise'

// Every instant is epoch milliseconds; pin the zone so nothing can depend on the host's.
process.env.TZ = 'UTC'

function configOrExit(): Config {
  try {
    return loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`configuration error: ${error.message}`)
      process.exit(2)
    }
    throw error
  }
}

/** The configured backend, or an exit naming what is wrong (DATABASE_URL masked). */
async function openBackendOrExit(parts: Parameters<typeof openBackend>[0]): Promise<OpenedBackend> {
  try {
    return await openBackend(parts)
  } catch (error) {
    const where = parts.config.databaseUrl ? {} : { path: parts.config.databasePath }
    if (error instanceof DatabaseUnavailable || error instanceof SigningKeyMismatch || error instanceof LogListError || error instanceof WitnessPolicyError) console.error(`cannot start: ${error.message}`)
    parts.log.error('cannot open the database; not starting', { ...where, error: (error as Error).message })
    process.exit(error instanceof MigrationError ? 3 : error instanceof SigningKeyMismatch || error instanceof LogListError || error instanceof WitnessPolicyError ? 2 : 1)
  }
}

type StopJob = () => void | Promise<void>

/** A background job: a name (the lease's, for a job run on one node at a time) and its start, which returns its stop. */
interface BackgroundJob {
  name: string
  start: () => StopJob | Promise<StopJob>
}

/**
 * The background jobs in the order they start; shutdown stops them in the reverse order, so a job
 * stops before what it uses (the webhook dispatcher, which issues receipts into the audit log and
 * reads the overrides and halts, starts last and stops first).
 */
function backgroundJobs(deps: AppDeps): BackgroundJob[] {
  // Jobs that must run on one node at a time run under leases in the database (store/leadership.ts),
  // named as their lease (each written out in its leases.run call: the multi-node tests read the
  // leased jobs from this file).
  const leases = deps.node.leadership
  const follower = deps.calendarUpdates.follower
  return [
    // Before anything can reload: every reload's changes are recorded and announced.
    { name: 'calendar-changes', start: () => deps.delivery.calendarChanges.start() },
    { name: 'calendars', start: () => startCalendarJobs(deps, { upstream: follower ? () => follower.health() : undefined }) },
    // One node checks the calendar source and stores what it accepts; every node applies it (docs/calendars.md).
    { name: 'calendar-upstream', start: () => leases.run('calendar-upstream', () => (follower ? follower.startPolling() : () => {})) },
    { name: 'calendar-sync', start: () => (follower ? follower.startSync() : () => {}) },
    { name: 'audit-log', start: () => deps.audit.start() },
    // One node polls the halt feed and shares what it saw; every node follows that view.
    { name: 'halt-poller', start: () => leases.run('halt-poller', () => deps.halts.start()) },
    { name: 'halt-follower', start: () => deps.halts.follow() },
    { name: 'override-watch', start: () => deps.overrides.start() },
    { name: 'audit-sealer', start: () => leases.run('audit-sealer', () => deps.auditTrail.sealer.start()) },
    { name: 'audit-retention', start: () => leases.run('audit-retention', () => deps.auditTrail.retention.start()) },
    // The tiled log: integration off committed rows and checkpoint publication, one node at a time.
    { name: 'log-integrator', start: () => leases.run('log-integrator', () => deps.transparency.integrator.start()) },
    { name: 'mcp-usage', start: () => deps.mcpUsage.start() },
    { name: 'mcp-allowance', start: () => deps.mcpAllowance.start() },
    { name: 'meter', start: () => deps.meter.start() },
    { name: 'mail-and-allowance-sweep', start: () => leases.run('mail-and-allowance-sweep', () => startAccountJobs(deps)) },
    { name: 'webhook-dispatcher', start: () => leases.run('webhook-dispatcher', () => deps.delivery.dispatcher.start()) },
  ]
}

/** Longest a clean stop may take before the process exits 1 saying so (systemd waits 30 s: docs/operations.md). */
const SHUTDOWN_DEADLINE_MS = 25_000

/** Exits once what was written to stdout (the log) has been handed to the pipe or file. */
async function exitFlushed(code: number): Promise<never> {
  await new Promise<void>((resolve) => {
    if (!process.stdout.write('', () => resolve())) process.stdout.once('drain', () => resolve())
  })
  process.exit(code)
}

/** The commands' database (the service's backend), or an exit naming what is wrong (DATABASE_URL masked). */
async function openCliStoresOrExit(config: Config, init: boolean, log: Logger) {
  try {
    return await openCliStores(config, init, log, (line) => console.error(line))
  } catch (error) {
    console.error(`error: cannot open the database: ${(error as Error).message}`)
    process.exit(error instanceof MigrationError ? 3 : 1)
  }
}

/**
 * The data directory's lock (store/instance-lock.ts): exclusive for a lone process or a
 * supervisor, shared among REUSE_PORT processes; a worker runs under its supervisor's.
 */
function lockOrExit(config: Config): InstanceLock {
  try {
    return lockDataDir(config.dataDir, config.reusePort ? 'shared' : 'exclusive', { port: config.port, workers: config.workers })
  } catch (error) {
    if (!(error instanceof InstanceLocked)) throw error
    console.error(`cannot start: ${error.message}`)
    process.exit(2)
  }
}

/** A worker's log lines name it (`"worker":n` first), so that the supervisor's one stream tells them apart. */
const workerLines = (role: WorkerRole | null) => (role ? (line: string) => void process.stdout.write(`{"worker":${role.n},${line.slice(1)}\n`) : undefined)

async function serve(): Promise<void> {
  const config = configOrExit()
  const role = workerRole()
  await checkHost(config.host).catch((error: ConfigError) => {
    console.error(`configuration error: ${error.message}`)
    process.exit(2)
  })
  if (role && !admitted(role)) {
    console.error('cannot start: OPENBELL_WORKER is set, but this process was not started by the openbell supervisor it names (start openbell with WORKERS instead)')
    process.exit(2)
  }
  let lock: InstanceLock | null = null
  if (!role) {
    try {
      probePort(config)
    } catch (error) {
      console.error(`cannot start: ${(error as Error).message}`)
      process.exit(2)
    }
    lock = lockOrExit(config)
  }
  if (lock && config.workers > 1) return supervise(config, lock, exitFlushed)
  const log = createLogger(config.logLevel, workerLines(role))
  const signer = loadSigner(config, new Date(systemClock.now()), log)
  if (config.calendarUpstream && !parseUpstreamKey(config.calendarUpstream.key)) {
    console.error('configuration error: CALENDAR_UPSTREAM_KEY: not an Ed25519 note vkey whose key id matches its name and key (copy calendar_publisher_key.vkey from the source\'s /v5/keys)')
    process.exit(2)
  }
  // A calendar update a crash interrupted is finished before the first load (no half-applied manifest).
  recoverPendingApply(config.schedulesDir, log)
  const calendars = new CalendarRegistry(config.schedulesDir, log, systemClock)
  calendars.reload('boot')
  const backend = await openBackendOrExit({ config, clock: systemClock, log, signer, calendars })
  const { deps } = backend
  if (!config.securityContact) log.warn('no SECURITY_CONTACT configured: /.well-known/security.txt answers 404 (a security.txt without Contact is invalid)')
  const stops: StopJob[] = []
  for (const job of backgroundJobs(deps)) {
    // Awaited only when it is a promise: the synchronous starts run back to back, as written.
    const stop = job.start()
    stops.push(stop instanceof Promise ? await stop : stop)
  }
  deps.healthExtras.push(() => ({ halt_monitor: deps.halts.status() }))
  const supervisor = role ? joinSupervisor(log, () => void shutdown('supervisor gone')) : null
  if (supervisor) deps.healthExtras.push(() => ({ workers: supervisor.workers() }))
  let app: ReturnType<typeof buildApp>
  try {
    app = listenOrFail(() => buildApp(deps).listen(listenOptions(config)), config)
  } catch (error) {
    if (!(error instanceof ListenError)) throw error
    console.error(`cannot start: ${error.message}`)
    process.exit(2)
  }
  log.info('listening', { url: `http://${config.host}:${app.server?.port}`, storage: deps.node.backend, node_id: deps.node.id, base_url: config.publicBaseUrl, issuer: config.issuer, signer: signer.online ? 'online' : 'offline', schedules: config.schedulesDir, data_dir: config.dataDir, reuse_port: config.reusePort, durability: config.durability, ...(backend.synchronous ? { synchronous: backend.synchronous } : {}) })
  supervisor?.ready()
  log.info('client address source', config.clientIpHeader ? { source: 'header', header: config.clientIpHeader, note: 'only correct behind a proxy that sets this header and hides the origin' } : { source: 'tcp_peer', note: 'behind a proxy set CLIENT_IP_HEADER to its client-address header' })

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    log.info('shutting down', { signal })
    // This timer keeps the event loop alive until every step has run: once the server has
    // stopped, what is left (the checkpoint worker, write-behind timers) is unref'd or cleared,
    // and Bun would exit in the middle of the steps (the final line was missing in 7 of 10
    // stops). It also bounds a stop that hangs, inside systemd's TimeoutStopSec.
    const deadline = setTimeout(() => {
      log.error('shutdown did not finish in time; exiting', { deadline_ms: SHUTDOWN_DEADLINE_MS })
      void exitFlushed(1)
    }, SHUTDOWN_DEADLINE_MS)
    try {
      // Streams never finish by themselves: end them, then stop accepting; in-flight requests
      // finish before stop() resolves.
      await deps.delivery.streams.closeAll()
      await app.stop()
      for (const stop of stops.toReversed()) await stop()
      await backend.close()
    } catch (error) {
      clearTimeout(deadline)
      log.error('shutdown step failed', { error: (error as Error).message })
      return exitFlushed(1)
    }
    clearTimeout(deadline)
    lock?.release()
    log.info('stopped')
    await exitFlushed(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE)
    process.exit(0)
  }
  if (command === undefined || command === 'serve') return serve()
  if (command === 'calendars' && ['publish', 'follow', 'status'].includes(rest[0] ?? '')) {
    const config = configOrExit()
    const log = createLogger('warn')
    process.exit(await runCalendarUpdatesCommand(rest, { config, log, out: (line) => console.log(line), err: (line) => console.error(line), openStores: (init) => openCliStoresOrExit(config, init, log) }))
  }
  if (command === 'calendars') process.exit(runCalendarsCommand(rest, configOrExit().schedulesDir))
  if (command === 'db') {
    const config = configOrExit()
    const log = createLogger('warn')
    // The source is always the SQLite file the service used (DATA_DIR / DATABASE_PATH), never created here.
    const openSource = () => {
      console.error(`database: ${config.databasePath}`)
      if (existsSync(config.databasePath)) return openSqlite(config.databasePath, log)
      console.error(`error: there is no database at ${config.databasePath}; point DATA_DIR (or DATABASE_PATH) at the directory the service used`)
      return null
    }
    const status = process.stdout.isTTY ? (line: string) => void process.stdout.write(`\r\x1b[K${line}`) : null
    const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line), status, now: () => Date.now(), openSource, environmentUrl: config.databaseUrl, readText: (path: string) => readFileSync(path, 'utf8') }
    process.exit(await runDbCommand(rest, io))
  }
  if (command === 'keys' || command === 'overrides' || command === 'backup' || command === 'mail') {
    const config = configOrExit()
    const log = createLogger('warn')
    const { args, init } = takeInitFlag(rest)
    const out = (line: string) => console.log(line)
    const opened = await openCliStoresOrExit(config, init, log)
    if (!opened.ok) process.exit(opened.code)
    const stores = opened.stores
    let code: number
    if (command === 'keys') code = await runKeysCommand(args, stores.accounts, new Date(), out, stores.usage)
    else if (command === 'overrides') code = await runOverridesCommand(args, new OverrideService(stores.overrides, systemClock, log), systemClock.now(), out)
    else if (command === 'mail') code = await runMailCommand(args, stores.mailOutbox, config, systemClock.now(), out)
    else code = runBackupCommand(args, stores, out)
    await stores.close()
    process.exit(code)
  }
  if (command === 'log') process.exit(await runLogCommand(rest, (line) => console.log(line), (line) => console.error(line)))
  if (command === 'healthcheck') {
    const options = parseHealthcheckArgs(rest)
    if (typeof options === 'string') {
      console.error(options)
      process.exit(2)
    }
    const config = configOrExit()
    process.exit(await runHealthcheck(config.host, config.port, undefined, options))
  }
  console.error(USAGE)
  process.exit(2)
}

await main(process.argv.slice(2))

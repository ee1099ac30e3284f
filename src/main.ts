// The only place that reads the environment, opens files, starts timers and listens.
// `openbell` serves; `openbell keys|calendars …` are operator commands using the same code.
import { loadConfig, ConfigError, type Config } from './config'
import { createLogger, type Logger } from './log'
import { systemClock } from './clock'
import { openDatabase, synchronousMode } from './store/database'
import { startCheckpoints } from './store/checkpoints'
import { applyMigrations, MigrationError } from './store/migrate'
import { MIGRATIONS } from './store/migrations'
import { loadSigner } from './crypto/key-file'
import { sqliteAccountStore } from './accounts/store'
import { sqliteUsageStore } from './accounts/usage-store'
import { buildApp } from './app'
import { runCalendarsCommand } from './cli/calendars'
import { runKeysCommand } from './cli/keys'
import { runHealthcheck } from './cli/healthcheck'
import { sqliteDeps } from './deps'
import { CalendarRegistry } from './calendar/registry'
import { startCalendarJobs } from './calendar/jobs'
import { OverrideService } from './market/overrides/service'
import { sqliteOverrideStore } from './market/overrides/store'
import { runOverridesCommand } from './cli/overrides'
import type { Database } from 'bun:sqlite'
import { checkHost, ListenError, listenOptions, listenOrFail, probePort } from './http/listen'
import { openCliDatabase, takeInitFlag } from './cli/database'
import { runBackupCommand } from './cli/backup'
import { USAGE } from './cli/usage'
import { runMailCommand } from './cli/mail'
import { mailOutbox } from './accounts/mail/outbox'
import { startAccountJobs } from './accounts/jobs'

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

function openStore(config: Config, log: Logger) {
  try {
    const db = openDatabase(config.databasePath, config.durability)
    const applied = applyMigrations(db, MIGRATIONS)
    if (applied.length) log.info('database migrated', { path: config.databasePath, applied })
    return db
  } catch (error) {
    log.error('cannot open the database; not starting', { path: config.databasePath, error: (error as Error).message })
    process.exit(error instanceof MigrationError ? 3 : 1)
  }
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

function overrideService(db: Database, log: Logger): OverrideService {
  return new OverrideService(sqliteOverrideStore(db), systemClock, log)
}

async function serve(): Promise<void> {
  const config = configOrExit()
  await checkHost(config.host).catch((error: ConfigError) => {
    console.error(`configuration error: ${error.message}`)
    process.exit(2)
  })
  try {
    probePort(config)
  } catch (error) {
    console.error(`cannot start: ${(error as Error).message}`)
    process.exit(2)
  }
  const log = createLogger(config.logLevel)
  const db = openStore(config, log)
  const stopCheckpoints = startCheckpoints(db, config.databasePath, log)
  const signer = loadSigner(config, new Date(systemClock.now()), log)
  const calendars = new CalendarRegistry(config.schedulesDir, log, systemClock)
  calendars.reload('boot')
  const deps = sqliteDeps({ config, clock: systemClock, log, signer, calendars, db })
  const stopCalendarJobs = startCalendarJobs(deps)
  if (!config.securityContact) log.warn('no SECURITY_CONTACT configured: /.well-known/security.txt answers 404 (a security.txt without Contact is invalid)')
  const stopHaltMonitor = deps.halts.start()
  const stopAudit = deps.audit.start()
  const stopSealer = deps.auditTrail.sealer.start()
  const stopRetention = deps.auditTrail.retention.start()
  const stopMcpUsage = deps.mcpUsage.start()
  const stopMcpAllowance = deps.mcpAllowance.start()
  const stopMeter = deps.meter.start()
  const stopAccountJobs = startAccountJobs(deps)
  deps.healthExtras.push(() => ({ halt_monitor: deps.halts.status() }))
  const stopDispatcher = deps.delivery.dispatcher.start()
  let app: ReturnType<typeof buildApp>
  try {
    app = listenOrFail(() => buildApp(deps).listen(listenOptions(config)), config)
  } catch (error) {
    if (!(error instanceof ListenError)) throw error
    console.error(`cannot start: ${error.message}`)
    process.exit(2)
  }
  log.info('listening', { url: `http://${config.host}:${app.server?.port}`, base_url: config.publicBaseUrl, issuer: config.issuer, signer: signer.online ? 'online' : 'offline', schedules: config.schedulesDir, data_dir: config.dataDir, reuse_port: config.reusePort, durability: config.durability, synchronous: synchronousMode(db) })
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
      deps.delivery.streams.closeAll()
      await app.stop()
      await stopDispatcher()
      stopCalendarJobs()
      stopHaltMonitor()
      await stopAudit()
      stopSealer()
      stopRetention()
      await stopMcpUsage()
      await stopMcpAllowance()
      await stopMeter()
      await stopAccountJobs()
      await stopCheckpoints()
      db.close()
    } catch (error) {
      clearTimeout(deadline)
      log.error('shutdown step failed', { error: (error as Error).message })
      return exitFlushed(1)
    }
    clearTimeout(deadline)
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
  if (command === 'calendars') process.exit(runCalendarsCommand(rest, configOrExit().schedulesDir))
  if (command === 'keys' || command === 'overrides' || command === 'backup' || command === 'mail') {
    const config = configOrExit()
    const log = createLogger('warn')
    const { args, init } = takeInitFlag(rest)
    const out = (line: string) => console.log(line)
    const opened = openCliDatabase(config, init, (path) => openStore({ ...config, databasePath: path }, log), (line) => console.error(line))
    if (!opened.ok) process.exit(opened.code)
    const db = opened.db
    const code =
      command === 'keys' ? await runKeysCommand(args, sqliteAccountStore(db), new Date(), out, sqliteUsageStore(db))
      : command === 'overrides' ? await runOverridesCommand(args, overrideService(db, log), systemClock.now(), out)
      : command === 'mail' ? runMailCommand(args, mailOutbox(db), config, systemClock.now(), out)
      : runBackupCommand(args, db, out)
    db.close()
    process.exit(code)
  }
  if (command === 'healthcheck') {
    const config = configOrExit()
    process.exit(await runHealthcheck(config.host, config.port))
  }
  console.error(USAGE)
  process.exit(2)
}

await main(process.argv.slice(2))

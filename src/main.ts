// The only place that reads the environment, opens files, starts timers and listens.
// `openbell` serves; `openbell keys|calendars …` are operator commands using the same code.
import { loadConfig, ConfigError, type Config } from './config'
import { createLogger, type Logger } from './log'
import { systemClock } from './clock'
import { openDatabase } from './store/database'
import { applyMigrations, MigrationError } from './store/migrate'
import { MIGRATIONS } from './store/migrations'
import { loadSigner } from './crypto/key-file'
import { sqliteAccountStore } from './accounts/store'
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
    const db = openDatabase(config.databasePath)
    const applied = applyMigrations(db, MIGRATIONS)
    if (applied.length) log.info('database migrated', { path: config.databasePath, applied })
    return db
  } catch (error) {
    log.error('cannot open the database; not starting', { path: config.databasePath, error: (error as Error).message })
    process.exit(error instanceof MigrationError ? 3 : 1)
  }
}

function overrideService(db: Database, log: Logger): OverrideService {
  return new OverrideService(sqliteOverrideStore(db), systemClock, log)
}

async function serve(): Promise<void> {
  const config = configOrExit()
  const log = createLogger(config.logLevel)
  const db = openStore(config, log)
  const signer = loadSigner(config, new Date(systemClock.now()), log)
  const calendars = new CalendarRegistry(config.schedulesDir, log, systemClock)
  calendars.reload('boot')
  const deps = sqliteDeps({ config, clock: systemClock, log, signer, calendars, db })
  const stopCalendarJobs = startCalendarJobs(deps)
  if (!config.securityContact) log.warn('no SECURITY_CONTACT configured: /.well-known/security.txt answers 404 (a security.txt without Contact is invalid)')
  const stopHaltMonitor = deps.halts.start()
  const stopAudit = deps.audit.start()
  const stopMcpUsage = deps.mcpUsage.start()
  const stopMcpAllowance = deps.mcpAllowance.start()
  deps.healthExtras.push(() => ({ halt_monitor: deps.halts.status() }))
  const app = buildApp(deps).listen({ port: config.port, hostname: config.host })
  log.info('listening', { url: `http://${config.host}:${app.server?.port}`, issuer: config.issuer, signer: signer.online ? 'online' : 'offline', schedules: config.schedulesDir })

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    log.info('shutting down', { signal })
    // Stop accepting; in-flight requests finish before stop() resolves.
    await app.stop()
    stopCalendarJobs()
    stopHaltMonitor()
    await stopAudit()
    await stopMcpUsage()
    await stopMcpAllowance()
    db.close()
    log.info('stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv
  if (command === undefined || command === 'serve') return serve()
  if (command === 'calendars') process.exit(runCalendarsCommand(rest, configOrExit().schedulesDir))
  if (command === 'keys') {
    const config = configOrExit()
    const db = openStore(config, createLogger('warn'))
    const code = await runKeysCommand(rest, sqliteAccountStore(db), new Date(), (line) => console.log(line))
    db.close()
    process.exit(code)
  }
  if (command === 'overrides') {
    const config = configOrExit()
    const log = createLogger('warn')
    const db = openStore(config, log)
    const code = await runOverridesCommand(rest, overrideService(db, log), systemClock.now(), (line) => console.log(line))
    db.close()
    process.exit(code)
  }
  if (command === 'healthcheck') process.exit(await runHealthcheck(configOrExit().port))
  console.error('usage: openbell [serve] | keys … | overrides … | calendars check [dir] | healthcheck')
  process.exit(2)
}

await main(process.argv.slice(2))

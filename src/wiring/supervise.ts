// `openbell` with WORKERS > 1: the supervisor's life (supervisor.ts runs the workers). It takes
// the steps a start must take once — the signing key (generated here on a first start, so that
// every worker signs with the same one), the migrations and the key check — then starts the
// workers and waits for signals. Every step is logged; exit codes as a lone process's (main.ts).
import type { Config } from '../config'
import { createLogger } from '../log'
import { systemClock } from '../clock'
import { loadSigner } from '../crypto/key-file'
import type { InstanceLock } from '../store/instance-lock'
import { MigrationError } from '../store/migrate'
import { SigningKeyMismatch } from '../store/key-record'
import { DatabaseUnavailable } from '../store/postgres'
import { prepareBackend } from './open'
import { recoverPendingApply } from '../calendar/updates/apply'
import { Supervisor } from './supervisor'

export async function supervise(config: Config, lock: InstanceLock, exit: (code: number) => Promise<never>): Promise<void> {
  const log = createLogger(config.logLevel)
  log.info('supervisor starting', { pid: process.pid, workers: config.workers, data_dir: config.dataDir, storage: config.databaseUrl ? 'postgres' : 'sqlite' })
  const signer = loadSigner(config, new Date(systemClock.now()), log)
  try {
    await prepareBackend({ config, clock: systemClock, log, signer })
  } catch (error) {
    if (error instanceof DatabaseUnavailable || error instanceof SigningKeyMismatch) console.error(`cannot start: ${error.message}`)
    log.error('cannot open the database; not starting', { error: (error as Error).message })
    lock.release()
    return exit(error instanceof MigrationError ? 3 : error instanceof SigningKeyMismatch ? 2 : 1)
  }
  // A calendar update a crash interrupted is finished once, here, before the workers load the
  // directory side by side (each still checks at its own start: a worker restarted after dying
  // in the middle of an update finishes it).
  recoverPendingApply(config.schedulesDir, log)
  const supervisor = new Supervisor({ count: config.workers, nodeId: config.nodeId, log, env: process.env })

  let stopping: Promise<never> | null = null
  const stop = (signal: string, failedCode = 0) =>
    (stopping ??= (async () => {
      log.info('shutting down', { signal })
      const code = await supervisor.stop(signal)
      lock.release()
      log.info('stopped', { code: failedCode || code })
      return exit(failedCode || code)
    })())
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGHUP', () => supervisor.reload())
  // A worker that cannot start with this configuration (exit 2 or 3) stops them all, with its code.
  void supervisor.failed.then((code) => stop('worker cannot start', code))

  await supervisor.start()
  if (stopping) return
  log.info('listening', { url: `http://${config.host}:${config.port}`, workers: supervisor.list(), storage: config.databaseUrl ? 'postgres' : 'sqlite', data_dir: config.dataDir })
}

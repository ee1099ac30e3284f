// The transparency log's parts and the C2SP witness's, built once per app over the stores: the
// keys, the read path, the integrator with its publisher, and the witnessed-log registry whose
// add-checkpoint check also cosigns this log's own checkpoints.
import type { Config } from '../config'
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { Signer } from '../crypto/signer'
import type { AuditStore } from '../audit/store'
import type { Transactor } from '../store/transaction'
import { RateLimiter } from '../http/rate-limit'
import { addCheckpoint, type AddCheckpointOutcome, type AddCheckpointRequest } from '../witness/tlog/add-checkpoint'
import { readLogListFile, WitnessedLogs } from '../witness/tlog/logs'
import type { TlogWitnessStore } from '../witness/tlog/store'
import { logKeys, type LogKeys } from './keys'
import { TileReader } from './reader'
import type { TileStore } from './store'
import { LogIntegrator } from './integrator'
import { CheckpointPublisher } from './publisher'
import { readWitnessPolicy } from './witness-policy'

/** add-checkpoint requests per minute per client address (a log asks about once a second). */
export const ADD_CHECKPOINT_PER_MINUTE = 600

export interface TransparencyLog {
  /** Null while the signer is offline. */
  keys: LogKeys | null
  tiles: TileStore
  reader: TileReader
  integrator: LogIntegrator
}

export interface TlogWitness {
  store: TlogWitnessStore
  logs: WitnessedLogs
  limiter: RateLimiter
  /** Checks and cosigns a checkpoint (503 from the route when the key is offline: null). */
  add: ((request: AddCheckpointRequest) => Promise<AddCheckpointOutcome>) | null
}

export function transparencyServices(parts: { config: Config; clock: Clock; log: Logger; signer: Signer; transactor: Transactor; audit: AuditStore; tiles: TileStore; tlogWitness: TlogWitnessStore }): { transparency: TransparencyLog; tlogWitness: TlogWitness } {
  const { config, clock, log, signer, transactor } = parts
  const settings = config.transparency
  const keys = logKeys(signer, settings.origin, settings.witnessName)
  const fileLogs = settings.witnessLogsFile ? readLogListFile(settings.witnessLogsFile) : []
  const logs = new WitnessedLogs(parts.tlogWitness, fileLogs, keys ? { origin: keys.origin, vkey: keys.note.vkey } : null)
  const add = keys ? (request: AddCheckpointRequest) => addCheckpoint({ store: parts.tlogWitness, transactor, cosigner: keys.witness, keysOf: (origin) => logs.keysOf(origin) }, request, clock.now()) : null
  const reader = new TileReader(parts.tiles)
  const publisher =
    keys && add
      ? new CheckpointPublisher({
          tiles: parts.tiles,
          reader,
          keys,
          ownWitness: { add, size: async () => (await parts.tlogWitness.latest(keys.origin))?.size ?? 0 },
          witnesses: settings.witnessPolicyFile ? readWitnessPolicy(settings.witnessPolicyFile) : [],
          witnessTimeoutMs: settings.witnessTimeoutMs,
          clock,
          log,
        })
      : null
  const integrator = new LogIntegrator({ audit: parts.audit, tiles: parts.tiles, publisher, log, intervalMs: settings.checkpointIntervalMs })
  return {
    transparency: { keys, tiles: parts.tiles, reader, integrator },
    tlogWitness: { store: parts.tlogWitness, logs, limiter: new RateLimiter(ADD_CHECKPOINT_PER_MINUTE), add },
  }
}

// The C2SP witness's parts, built once per app over its store: the witnessed-log registry (the
// file's logs, the operator's, and this service's own log when its key is online) and the
// add-checkpoint check that cosigns with the witness key. src/wiring/transparency.ts hands it this
// log's keys and hands its check to the log's checkpoint publisher.
import type { Clock } from '../../clock'
import type { Transactor } from '../../store/transaction'
import { RateLimiter } from '../../http/rate-limit'
import type { WitnessCosigners } from '../../transparency/keys'
import { addCheckpoint, type AddCheckpointOutcome, type AddCheckpointRequest } from './add-checkpoint'
import { readLogListFile, WitnessedLogs } from './logs'
import type { TlogWitnessStore } from './store'
import { signSubtree, type SignSubtreeOutcome, type SignSubtreeRequest } from './sign-subtree'

/** add-checkpoint requests per minute per client address (a log asks about once a second). */
export const ADD_CHECKPOINT_PER_MINUTE = 600

export interface TlogWitness {
  store: TlogWitnessStore
  logs: WitnessedLogs
  limiter: RateLimiter
  /** Checks and cosigns a checkpoint (503 from the route when the key is offline: null). */
  add: ((request: AddCheckpointRequest) => Promise<AddCheckpointOutcome>) | null
  /** Cosigns a subtree of a checkpoint this witness cosigned (null while the key is offline). */
  signSubtree: ((request: SignSubtreeRequest) => Promise<SignSubtreeOutcome>) | null
}

/** `own`: this service's log and the witness key (null while the signer is offline). */
export function tlogWitnessServices(parts: { store: TlogWitnessStore; transactor: Transactor; clock: Clock; logsFile: string | null; own: { origin: string; vkey: string; cosigner: WitnessCosigners } | null }): TlogWitness {
  const { store, transactor, clock, own } = parts
  const fileLogs = parts.logsFile ? readLogListFile(parts.logsFile) : []
  const logs = new WitnessedLogs(store, fileLogs, own ? { origin: own.origin, vkey: own.vkey } : null)
  const add = own ? (request: AddCheckpointRequest) => addCheckpoint({ store, transactor, cosigner: own.cosigner, keysOf: (origin) => logs.keysOf(origin) }, request, clock.now()) : null
  const subtree = own ? (request: SignSubtreeRequest) => signSubtree({ store, cosigner: own.cosigner, keysOf: (origin) => logs.keysOf(origin) }, request) : null
  return { store, logs, limiter: new RateLimiter(ADD_CHECKPOINT_PER_MINUTE), add, signSubtree: subtree }
}

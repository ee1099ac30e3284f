// What the witness domain's routes take (types only: a full set of the app's dependencies
// satisfies each): the checkpoint witness (routes.ts) and the C2SP tlog-witness (tlog/).
import type { Config } from '../config'
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { Signer } from '../crypto/signer'
import type { Transactor } from '../store/transaction'
import type { AccountStore } from '../accounts/store'
import type { WitnessStore } from './store'
import type { WitnessLimiters } from './limits'
import type { TlogWitness } from './tlog/services'

/** The checkpoint witness's append-only store and its per-address and per-account limiters. */
export interface WitnessParts {
  store: WitnessStore
  limiters: WitnessLimiters
}

/** The checkpoint witness (routes.ts): submissions in one unit of work, signed receipts, paging; keys for the Evidence plans. */
export interface WitnessDeps {
  config: Config
  clock: Clock
  log: Logger
  signer: Signer
  transactor: Transactor
  accounts: AccountStore
  witness: WitnessParts
}

/** The C2SP witness (tlog/routes.ts, tlog/admin-routes.ts). */
export interface TlogWitnessDeps {
  config: Config
  clock: Clock
  log: Logger
  /** The C2SP witness (POST /add-checkpoint): witnessed logs, their heads, the cosigning key. */
  tlogWitness: TlogWitness
}

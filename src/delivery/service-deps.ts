// What the delivery domain's long-lived parts take (types only: a full set of the app's
// dependencies satisfies each). Apart from delivery/deps.ts, which names the parts themselves
// (DeliveryServices): the modules the parts are made of import this file, so no type import leads
// from them back to the file that names them.
import type { Transactor } from '../store/transaction'
import type { NodeInfo } from '../store/node'
import type { AccountStore } from '../accounts/store'
import type { IssueDeps } from '../market/deps'

/** The stream hub and its coordinators (stream/): a signed, audit-logged receipt per tick; the key's account rechecked; every node's open streams. */
export interface StreamDeps extends IssueDeps {
  accounts: AccountStore
  transactor: Transactor
}

/** The webhook dispatcher (webhooks/dispatcher.ts): detects changes, issues their receipts, records each transition in a unit of work. */
export interface DispatcherDeps extends IssueDeps {
  transactor: Transactor
}

/** Building the parts (services.ts): the node's lease holder name claims queue rows and registers streams. */
export interface DeliveryServiceDeps extends StreamDeps, DispatcherDeps {
  /** Which backend this node runs on, its id and the jobs it leads (/v5/health `storage`). */
  node: NodeInfo
}

// What the board's routes take (types only: a full set of the app's dependencies satisfies it):
// every venue's state through resolution (MarketDeps), and the witness page's lookup.
import type { Config } from '../config'
import type { Clock } from '../clock'
import type { MarketDeps } from '../market/resolve'
import type { WitnessParts } from '../witness/deps'
import type { CalendarUpdates } from '../calendar/updates/services'

/** The board surfaces (routes/): /v5/board, /venue/{MIC}, /witness, /verify, assets. */
export interface BoardDeps extends MarketDeps {
  config: Config
  clock: Clock
  witness: WitnessParts
  /** The venue page's "last changed" (the newest entry of the change list). */
  calendarUpdates: CalendarUpdates
}

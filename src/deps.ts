// What the app is built from. main.ts makes the real ones; tests make them with a fake clock,
// a temp database and a fixed key, in one call (test/helpers/app.ts).
import type { Config } from './config'
import type { Clock } from './clock'
import type { Logger } from './log'
import type { Signer } from './crypto/signer'
import type { AccountStore } from './accounts/store'
import type { CalendarRegistry } from './calendar/registry'
import type { OverrideService } from './market/overrides/service'
import type { HaltMonitor } from './market/halts/monitor'
import type { ReceiptAuditQueue } from './audit/queue'
import type { RateLimiter } from './http/rate-limit'
import type { WitnessStore } from './witness/store'
import type { WitnessLimiters } from './witness/limits'

export interface AppDeps {
  config: Config
  clock: Clock
  log: Logger
  signer: Signer
  accounts: AccountStore
  calendars: CalendarRegistry
  overrides: OverrideService
  halts: HaltMonitor
  audit: ReceiptAuditQueue
  /** Per-address limiter of the public safe-to-trade sample door (60/min). */
  sampleDoorLimiter: RateLimiter
  witness: { store: WitnessStore; limiters: WitnessLimiters }
  /** Unsigned extra fields for /v5/health (warnings from background jobs). */
  healthExtras: Array<() => Record<string, unknown>>
}

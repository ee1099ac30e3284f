// What the tool endpoint takes (types only: a full set of the app's dependencies satisfies each):
// the tools themselves read only the calendars, the clock, the key, the configuration and the
// log's policy; the endpoint also meters keys, resolves bearer tokens and issues live receipts.
import type { Config } from '../config'
import type { Clock } from '../clock'
import type { Signer } from '../crypto/signer'
import type { CalendarRegistry } from '../calendar/registry'
import type { AnswerCache } from '../calendar/answer-cache'
import type { BearerDeps, MeterDeps } from '../accounts/deps'
import type { IssueDeps } from '../market/deps'
import type { McpUsage } from './usage'
import type { AnonymousAllowance } from './allowance'
import type { TransparencyLog } from '../transparency/services'

/** What a tool's run reads (tools.ts); get_market_status issues its receipt through the caller instead. */
export interface McpToolDeps {
  config: Config
  clock: Clock
  signer: Signer
  calendars: CalendarRegistry
  /** get_market_calendar answers from the calendar routes' cache. */
  calendarAnswers: AnswerCache
  /** verify_receipt checks a receipt's tlog-proof under the log's published policy. */
  transparency: TransparencyLog
}

/** The tool endpoint (routes.ts, access.ts, dispatch.ts). */
export interface McpDeps extends McpToolDeps, IssueDeps, MeterDeps, BearerDeps {
  /** Tool-endpoint usage counts (written behind once a second). */
  mcpUsage: McpUsage
  /** The anonymous daily allowance per client. */
  mcpAllowance: AnonymousAllowance
}

// Composes the HTTP app from its parts. No environment, files, timers or listening here:
// main.ts does those, and tests call buildApp with fakes.
import { Elysia } from 'elysia'
import { httpPlugin } from './http/plugin'
import { classOfKey } from './catalogue/plans'
import { corsPlugin } from './http/cors'
import { keyRoutes } from './discovery/routes/keys'
import { healthRoutes } from './discovery/routes/health'
import { readyRoutes } from './discovery/routes/ready'
import { exchangeRoutes } from './calendar/routes/exchanges'
import { scheduleRoutes } from './calendar/routes/schedule'
import { historicalRoutes } from './calendar/routes/historical'
import { dstRiskRoutes } from './calendar/routes/dst-risk'
import { calendarRoutes } from './calendar/routes/calendar'
import { calendarFeedRoutes } from './calendar/routes/calendar-feed'
import { holidayRoutes } from './calendar/routes/holidays'
import { calendarAdminRoutes } from './calendar/routes/admin'
import { calendarChangeRoutes } from './calendar/routes/changes'
import { calendarFileRoutes } from './calendar/routes/calendar-files'
import { receiptRoutes } from './market/routes/receipts'
import { batchRoutes } from './market/routes/batch'
import { safeToTradeRoutes } from './market/routes/safe-to-trade'
import { verifyRoutes } from './market/routes/verify'
import { marketDiscoveryRoutes } from './market/routes/discovery'
import { overrideRoutes } from './market/routes/overrides'
import { witnessRefusalShape, witnessRoutes } from './witness/routes'
import { tlogWitnessRoutes } from './witness/tlog/routes'
import { witnessAdminRoutes } from './witness/tlog/admin-routes'
import { signSubtreeRoutes } from './witness/tlog/sign-subtree-routes'
import { transparencyRoutes } from './transparency/routes'
import { hardeningPlugin } from './http/hardening'
import { docsRoutes } from './discovery/routes/docs'
import { indexRoutes } from './discovery/routes/index'
import { boardRoutes } from './board/routes'
import { mcpRoutes } from './mcp/routes'
import { auditRoutes } from './audit/routes'
import { paymentRoutes } from './payments/routes'
import { accountRoutes } from './accounts/routes'
import { deliveryRoutes } from './delivery/routes'
import { documentRoutes } from './discovery/routes/documents'
import { descriptionRoutes } from './discovery/routes/descriptions'
import { API_VERSION } from './version'
import type { Transactor } from './store/transaction'
import type { CalendarDeps, CalendarJobDeps } from './calendar/deps'
import type { AccountJobDeps, AccountsDeps } from './accounts/deps'
import type { PaymentsDeps } from './payments/deps'
import type { AuditDeps } from './audit/deps'
import type { MarketRouteDeps } from './market/deps'
import type { TransparencyDeps } from './transparency/deps'
import type { TlogWitnessDeps, WitnessDeps } from './witness/deps'
import type { McpDeps } from './mcp/deps'
import type { McpStore } from './mcp/store'
import type { DeliveryDeps } from './delivery/deps'
import type { DeliveryServiceDeps } from './delivery/service-deps'
import type { DiscoveryDeps } from './discovery/deps'
import type { BoardDeps } from './board/deps'

export { API_VERSION }

/**
 * What the app is built from: every domain's dependencies at once (each domain names the few it
 * takes in its deps.ts). The wiring makes one over a backend (src/wiring/); no domain imports it.
 */
export interface AppDeps extends CalendarDeps, CalendarJobDeps, AccountsDeps, AccountJobDeps, PaymentsDeps, AuditDeps, MarketRouteDeps, TransparencyDeps, WitnessDeps, TlogWitnessDeps, McpDeps, DeliveryDeps, DeliveryServiceDeps, DiscoveryDeps, BoardDeps {
  /** Runs a unit of work over several stores as one transaction, on either backend (store/transaction.ts). */
  transactor: Transactor
  /** The tool endpoint's store, under its usage counts and anonymous allowance (tests build over it). */
  mcpStore: McpStore
}

export function buildApp(deps: AppDeps) {
  let routes: () => readonly { method: string; path: string; hooks?: unknown }[] = () => []
  // standardHostname: Elysia's default cuts the path out of request.url from character 11 on,
  // assuming a host of at least 4 characters ("http://a.bc/"); with `Host: ab` that start falls
  // inside the path (issue 24 item 2; docs/operations.md). From character 7 it holds for any host.
  const app = new Elysia({ name: 'openbell', handler: { standardHostname: false } })
    .use(httpPlugin({ log: deps.log, clock: deps.clock, routes: () => routes(), adminKey: deps.config.adminKey, keyClass: classOfKey }))
    .use(corsPlugin(deps.config))
    .use(hardeningPlugin({ routes: () => routes(), shape: witnessRefusalShape(deps) }))
    .use(keyRoutes(deps))
    .use(healthRoutes(deps))
    .use(readyRoutes(deps))
    .use(exchangeRoutes(deps))
    .use(scheduleRoutes(deps))
    .use(historicalRoutes(deps))
    .use(dstRiskRoutes(deps))
    .use(calendarRoutes(deps))
    // The change list, the feeds and the source's manifest and files as one plugin (a shallower route-type chain).
    .use(new Elysia({ name: 'calendar-changes-feeds-files' }).use(calendarChangeRoutes(deps)).use(calendarFeedRoutes(deps)).use(calendarFileRoutes(deps)))
    .use(holidayRoutes(deps))
    .use(calendarAdminRoutes(deps))
    .use(receiptRoutes(deps))
    .use(batchRoutes(deps))
    .use(safeToTradeRoutes(deps))
    .use(verifyRoutes(deps))
    .use(marketDiscoveryRoutes(deps))
    .use(overrideRoutes(deps))
    .use(witnessRoutes(deps))
    .use(auditRoutes(deps))
    // The transparency log and the C2SP witness as one plugin, so the route-type chain stays shallow enough to check.
    .use(new Elysia({ name: 'transparency-and-tlog-witness' }).use(transparencyRoutes(deps)).use(tlogWitnessRoutes(deps)).use(signSubtreeRoutes(deps)).use(witnessAdminRoutes(deps)))
    .use(docsRoutes())
    .use(indexRoutes(deps))
    .use(boardRoutes(deps))
    .use(mcpRoutes(deps))
    .use(documentRoutes(deps, () => routes()))
    .use(descriptionRoutes(deps, () => routes()))
    .use(paymentRoutes(deps))
    .use(accountRoutes(deps))
    .use(deliveryRoutes(deps))
  routes = () => app.routes
  return app
}

export type App = ReturnType<typeof buildApp>

// /v5/funnel (operator): one UTC day from first contact to payment, counted from the stores.
// top_of_funnel: distinct tool-endpoint clients that day plus keys issued that day without
// payment (free, sandbox, credit); converted: paid keys issued that day plus x402 payments
// settled that day. conversion_rate = converted / top_of_funnel (null when nobody came).
import type { AppDeps } from '../deps'
import { addDays, utcDay } from '../audit/dates'

export async function funnel(deps: AppDeps, date: string) {
  const from = `${date}T00:00:00.000Z`
  const to = `${addDays(date, 1)}T00:00:00.000Z`
  const usage = date === utcDay(deps.clock.now()) ? await deps.mcpUsage.today() : await deps.mcpStore.usage(date)
  const issued = (await deps.accounts.list()).filter((account) => account.created_at >= from && account.created_at < to)
  const unpaidKeys = issued.filter((account) => account.class !== 'paid').length
  const paidKeys = issued.length - unpaidKeys
  const payments = await deps.payments.settledBetween(from, to)
  const top = usage.clients + unpaidKeys
  const converted = paidKeys + payments
  return {
    date,
    top_of_funnel: top,
    converted,
    conversion_rate: top === 0 ? null : Math.round((converted / top) * 10_000) / 10_000,
    breakdown: { mcp_clients: usage.clients, mcp_requests: usage.requests, unpaid_keys_issued: unpaidKeys, paid_keys_issued: paidKeys, x402_payments_settled: payments },
    definition: 'top_of_funnel = distinct tool-endpoint clients + keys issued without payment (free, sandbox, credit); converted = paid keys issued + x402 payments settled; conversion_rate = converted / top_of_funnel (null when top_of_funnel is 0). UTC day.',
  }
}

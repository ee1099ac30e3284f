// What the sample door and the paid door of safe-to-trade share: the query schema and the unsigned
// answer when signing is offline (never a signed-looking "safe").
import { t } from 'elysia'
import type { IssueDeps } from '../deps'
import { resolveStatus, type MarketDeps } from '../resolve'
import { signSafeToTrade, type SafeToTradeInput } from '../safe-to-trade'

// The sample door's rate is the domain's (discovery's documents state it too).
export { SAMPLE_DOOR_PER_MINUTE } from '../safe-to-trade'

export const safeToTradeQuery = (venueDescription: string) =>
  t.Object({
    venue: t.Optional(t.String({ description: venueDescription })),
    max_age: t.Optional(t.String({ description: 'required: integer 1 to 60, digits only' })),
    instrument: t.Optional(t.String({ description: 'optional, at most 64 characters; echoed into the signed payload' })),
  })

export const signingOfflineBody = (venue: string) => ({ error: 'CRITICAL_FAILURE', message: 'signing system offline; do not trade', status: 'UNKNOWN', venue, venue_status: 'UNKNOWN', venue_source: 'SYSTEM', safe: 'false' })

/** The venue's state and the cross-venue scan at `now`, signed; null when signing is offline. */
export async function resolveAndSign(deps: MarketDeps & Pick<IssueDeps, 'signer' | 'config'>, input: SafeToTradeInput, now: number): Promise<ReturnType<typeof signSafeToTrade> | null> {
  const venue = await resolveStatus(deps, input.venue, now)
  const scan = { realtimeHalts: deps.halts.haltedMics(), ok: deps.halts.state(now) !== 'degraded' }
  try {
    return signSafeToTrade(deps.signer, deps.config.issuer, input, venue, scan, now)
  } catch {
    return null
  }
}

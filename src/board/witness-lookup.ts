// The witness page's lookup of a session's checkpoints: the same query rules, store read, page
// size and per-address limit as GET /v1/witness/checkpoints (a page view is one such read), with
// the receipts parsed for display. The browser then verifies each receipt's signature.
import type { BoardDeps } from './deps'
import { clientAddress } from '../http/client-address'
import { parsePageQuery, PAGE_SIZE, splitPage } from '../witness/query'

export type WitnessLookup =
  | { state: 'form' }
  | { state: 'refused'; status: 400 | 429 | 503; message: string; retryAfterSeconds?: number }
  | { state: 'found'; kid: string; sessionId: string; after: string | null; receipts: Record<string, string>[]; nextAfter: string | null }

export async function lookupWitnessSession(deps: Pick<BoardDeps, 'witness' | 'config' | 'clock' | 'log'>, request: Request, server: Parameters<typeof clientAddress>[2]): Promise<WitnessLookup> {
  const params = new URL(request.url).searchParams
  if (!params.has('kid') && !params.has('session_id') && !params.has('after')) return { state: 'form' }
  const decision = deps.witness.limiters.anonymousGet.hit(clientAddress(request, deps.config.clientIpHeader, server), deps.clock.now())
  if (!decision.allowed) return { state: 'refused', status: 429, message: `too many lookups from your address; retry in ${decision.retryAfterSeconds} s`, retryAfterSeconds: decision.retryAfterSeconds }
  const query = parsePageQuery(params)
  if (!query.ok) return { state: 'refused', status: 400, message: query.message }
  let rows
  try {
    rows = await deps.witness.store.page(query.kid, query.sessionId, query.after, PAGE_SIZE + 1)
  } catch (error) {
    deps.log.error('witness store unavailable', { error: (error as Error).message })
    return { state: 'refused', status: 503, message: 'the witness store is unavailable' }
  }
  const { page, nextAfter } = splitPage(rows)
  return {
    state: 'found',
    kid: query.kid,
    sessionId: query.sessionId,
    after: query.after ? `${query.after.count}:${query.after.hash}` : null,
    receipts: page.map((row) => JSON.parse(row.receipt_json) as Record<string, string>),
    nextAfter,
  }
}

// HEAD on the signed-receipt routes: the status and headers a GET would get, with no receipt
// signed, no audit row written, no payment spent and no request counted (a HEAD answer has no body to carry them).
import type { AccessDeps } from './deps'
import { API_KEY_HEADER } from '../http/auth'
import { checkApiKey, keyCheckError } from '../accounts/key-check'
import { requireKeyOrPayment } from './access'
import { meterRefusal } from '../accounts/meter-answer'

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' }

export const isHead = (request: Request) => request.method === 'HEAD'

/**
 * Checks access as the GET would (a missing key gets the same 402 with the requirements; any
 * payment header is dropped, never verified or settled), then answers headers only. Callers
 * parse their input first, so a bad MIC is the same 400.
 */
export async function headOfPaidRoute(deps: AccessDeps, request: Request, price: string, description: string, purpose: string): Promise<Response> {
  const check = await checkApiKey(deps, request.headers.get(API_KEY_HEADER))
  if (check.kind !== 'ok' && check.kind !== 'missing') throw keyCheckError(check, deps)
  if (check.kind === 'ok') {
    // A key past its limit gets the GET's refusal; nothing is counted.
    const refusal = await deps.meter.peek(check.account)
    if (refusal) throw meterRefusal(deps, check.account, refusal, { resourceUrl: `${deps.config.publicBaseUrl}${new URL(request.url).pathname}`, price, description })
  }
  if (check.kind === 'missing') {
    const headers = new Headers(request.headers)
    headers.delete('payment-signature')
    headers.delete('x-payment')
    await requireKeyOrPayment(deps, new Request(request.url, { headers }), price, description, purpose)
  }
  return new Response(null, { status: 200, headers: JSON_HEADERS })
}

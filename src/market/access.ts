// Access to paid receipts: an API key, metered per key (src/accounts/metering.ts), or (spec 5
// rule 2) an x402 payment; otherwise a 402 that says how to pay.
import type { DomainDeps } from '../domain-deps'
import type { AccountRow } from '../accounts/store'
import { API_KEY_HEADER } from '../http/auth'
import { checkApiKey, keyCheckError } from '../accounts/key-check'
import { ApiError, criticalFailure } from '../http/errors'
import { meter } from '../accounts/meter-answer'
import { paymentRequired } from '../payments/requirements'
import { payForRequest, type PaidRequest } from '../payments/service'

/** `headers`: the X-RateLimit-* headers the answer carries; `refund`: undo the count when the request then fails. */
export type Access = { kind: 'key'; account: AccountRow; headers: Record<string, string>; refund: () => Promise<void> } | { kind: 'payment'; paid: PaidRequest }

const carriesPayment = (headers: Headers) => headers.has('payment-signature') || headers.has('x-payment')

/**
 * An API key within its limits (counted here), or an x402 payment settled before the answer;
 * otherwise 402 with the requirements. A free key past its quota may still pay per request.
 */
export async function requireKeyOrPayment(deps: DomainDeps, request: Request, price: string, description: string, purpose: string): Promise<Access> {
  const check = await checkApiKey(deps, request.headers.get(API_KEY_HEADER))
  const url = new URL(request.url)
  const resourceUrl = `${deps.config.publicBaseUrl}${url.pathname}`
  if (check.kind === 'ok') {
    const metered = await meter(deps, check.account, url.pathname, { resourceUrl, price, description })
    if (metered.admitted) return { kind: 'key', account: check.account, headers: metered.headers, refund: metered.refund }
    if (metered.reason !== 'free_exhausted' || !carriesPayment(request.headers)) throw metered.error
  } else if (check.kind !== 'missing') throw keyCheckError(check, deps)
  // Never take a payment for a receipt that cannot be signed: refuse before settling.
  if (carriesPayment(request.headers) && !deps.signer.online) throw criticalFailure()
  const paid = await payForRequest(deps, request.headers, { resourceUrl, price, description, purpose })
  if (paid) return { kind: 'payment', paid }
  const { body, header } = paymentRequired(deps.config, resourceUrl, price, description)
  const { error, message, ...requirements } = body
  throw new ApiError(402, error, message, requirements, { 'payment-required': header })
}

/** Runs the answer of an admitted request; a key's count (credit, sandbox call) is given back when it fails. */
export async function refundingOnFailure<T>(access: Access, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (access.kind === 'key') await access.refund()
    throw error
  }
}

// Access to paid receipts: an API key, metered per key (src/accounts/metering.ts), or (spec 5
// rule 2) an x402 payment; otherwise a 402 that says how to pay.
import type { AccessDeps } from './deps'
import type { AccountRow } from '../accounts/store'
import { API_KEY_HEADER } from '../http/auth'
import { checkApiKey, keyCheckError } from '../accounts/key-check'
import { ApiError, criticalFailure } from '../http/errors'
import { meter } from '../accounts/meter-answer'
import { paymentRequired } from '../catalogue/payment-requirements'
import { claimPayment, type PendingPayment } from '../payments/service'

/**
 * `headers`: the X-RateLimit-* headers the answer carries; `refund`: undo the count when the
 * request then fails. A payment is claimed, not yet taken: answerAdmitted takes it.
 */
export type Access = { kind: 'key'; account: AccountRow; headers: Record<string, string>; refund: () => Promise<void> } | { kind: 'payment'; payment: PendingPayment }

/**
 * The request's path as routed: the text between the authority and the query. Parsing the whole
 * URL (`new URL`) for it cost about 1 µs a request on the hot path; the routes that call this
 * match their path exactly, so the text is what `URL.pathname` gave.
 */
function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const end = url.indexOf('?', start)
  return start < 0 ? '/' : url.slice(start, end < 0 ? undefined : end)
}

const carriesPayment = (headers: Headers) => headers.has('payment-signature') || headers.has('x-payment')

/**
 * An API key within its limits (counted here), or an x402 payment checked and claimed (taken by
 * answerAdmitted once the answer is logged); otherwise 402 with the requirements. A free key past
 * its quota may still pay per request.
 */
export async function requireKeyOrPayment(deps: AccessDeps, request: Request, price: string, description: string, purpose: string): Promise<Access> {
  const check = await checkApiKey(deps, request.headers.get(API_KEY_HEADER))
  const pathname = pathOf(request.url)
  const resourceUrl = `${deps.config.publicBaseUrl}${pathname}`
  if (check.kind === 'ok') {
    const metered = await meter(deps, check.account, pathname, { resourceUrl, price, description })
    if (metered.admitted) return { kind: 'key', account: check.account, headers: metered.headers, refund: metered.refund }
    if (metered.reason !== 'free_exhausted' || !carriesPayment(request.headers)) throw metered.error
  } else if (check.kind !== 'missing') throw keyCheckError(check, deps)
  // Never take a payment for a receipt that cannot be signed: refuse before settling.
  if (carriesPayment(request.headers) && !deps.signer.online) throw criticalFailure()
  const payment = await claimPayment(deps, request.headers, { resourceUrl, price, description, purpose })
  if (payment) return { kind: 'payment', payment }
  const { body, header } = paymentRequired(deps.config, resourceUrl, price, description)
  const { error, message, ...requirements } = body
  throw new ApiError(402, error, message, requirements, { 'payment-required': header })
}

/**
 * Runs the answer of an admitted request (`work` signs and logs it) and sets its headers. A key's
 * count (credit, sandbox call) is given back when the work fails. A payment is taken only after
 * the work succeeded, and released unspent when it failed: nobody pays for an answer not given.
 * When the payment cannot be taken the request answers its 402 or 503 instead.
 */
export async function answerAdmitted<T>(access: Access, set: { headers: Record<string, string | number> }, work: () => Promise<T>): Promise<T> {
  if (access.kind === 'key') Object.assign(set.headers, access.headers)
  let answer: T
  try {
    answer = await work()
  } catch (error) {
    await abandonAccess(access)
    throw error
  }
  if (access.kind === 'payment') set.headers['payment-response'] = (await access.payment.take()).responseHeader
  return answer
}

/** Undoes an admission whose answer is not given: the key's count back, or the payment released. */
export function abandonAccess(access: Access): Promise<void> {
  return access.kind === 'key' ? access.refund() : access.payment.release()
}

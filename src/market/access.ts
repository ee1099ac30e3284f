// Access to paid receipts: an API key, or (spec 5 rule 2) a 402 that says how to pay with x402.
import type { AppDeps } from '../deps'
import type { AccountRow } from '../accounts/store'
import { API_KEY_HEADER, checkApiKey, keyCheckError } from '../http/auth'
import { ApiError } from '../http/errors'
import { paymentRequired } from '../payments/requirements'
import { payForRequest, type PaidRequest } from '../payments/service'

export type Access = { kind: 'key'; account: AccountRow } | { kind: 'payment'; paid: PaidRequest }

/** An API key, or an x402 payment settled before the answer; otherwise 402 with the requirements. */
export async function requireKeyOrPayment(deps: AppDeps, request: Request, price: string, description: string, purpose: string): Promise<Access> {
  const check = await checkApiKey(deps, request.headers.get(API_KEY_HEADER))
  if (check.kind === 'ok') return { kind: 'key', account: check.account }
  if (check.kind !== 'missing') throw keyCheckError(check)
  const url = new URL(request.url)
  const resourceUrl = `${deps.config.publicBaseUrl}${url.pathname}`
  const paid = await payForRequest(deps, request.headers, { resourceUrl, price, description, purpose })
  if (paid) return { kind: 'payment', paid }
  const { body, header } = paymentRequired(deps.config, resourceUrl, price, description)
  const { error, message, ...requirements } = body
  throw new ApiError(402, error, message, requirements, { 'payment-required': header })
}

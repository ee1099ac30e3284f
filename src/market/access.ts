// Access to paid receipts: an API key, or (spec 5 rule 2) a 402 that says how to pay with x402.
import type { AppDeps } from '../deps'
import type { AccountRow } from '../accounts/store'
import { API_KEY_HEADER, checkApiKey, keyCheckError } from '../http/auth'
import { ApiError } from '../http/errors'
import { paymentRequired } from '../payments/requirements'

export async function requireKeyOrPayment(deps: AppDeps, request: Request, price: string, description: string): Promise<AccountRow> {
  const check = await checkApiKey(deps, request.headers.get(API_KEY_HEADER))
  if (check.kind === 'ok') return check.account
  if (check.kind !== 'missing') throw keyCheckError(check)
  const url = new URL(request.url)
  const { body, header } = paymentRequired(deps.config, `${deps.config.publicBaseUrl}${url.pathname}`, price, description)
  const { error, message, ...requirements } = body
  const paid = request.headers.get('payment-signature') ?? request.headers.get('x-payment')
  if (paid) {
    // Verifying and settling payments arrives with the payments work; never serve unverified.
    throw new ApiError(402, 'PAYMENT_NOT_VERIFIED', 'x402 payment verification is not available on this server yet; send an API key instead', requirements, { 'payment-required': header })
  }
  throw new ApiError(402, error, message, requirements, { 'payment-required': header })
}

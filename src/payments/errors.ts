// Why a payment was refused. Every refusal is a 402 with one of these codes (and the payment
// requirements, so the client can try again), except when the chain or the facilitator cannot
// be reached: then 503 and nothing is granted.
import { ApiError } from '../http/errors'

export const PAYMENT_REFUSALS = {
  PAYMENT_MALFORMED: 'the payment header is not a valid x402 payment',
  PAYMENT_WRONG_SCHEME: 'only the "exact" scheme is accepted',
  PAYMENT_WRONG_NETWORK: 'the payment is for another network',
  PAYMENT_WRONG_ASSET: 'the payment is in another token',
  PAYMENT_WRONG_RECIPIENT: 'the payment is not to this service',
  PAYMENT_INSUFFICIENT: 'the payment is less than the price',
  PAYMENT_NOT_YET_VALID: 'the authorization is not valid yet',
  PAYMENT_EXPIRED: 'the authorization has expired',
  PAYMENT_TOO_OLD: 'the transaction is older than this service accepts',
  PAYMENT_BAD_SIGNATURE: 'the authorization signature does not verify',
  PAYMENT_REPLAYED: 'this payment proof was already used',
  PAYMENT_NOT_FOUND: 'no such transaction on the chain',
  PAYMENT_FAILED: 'the transaction failed on chain',
  PAYMENT_REJECTED: 'the facilitator rejected the payment',
  PAYMENT_NOT_SETTLED: 'the facilitator could not settle the payment',
} as const

export type PaymentRefusal = keyof typeof PAYMENT_REFUSALS

export class PaymentRefused extends Error {
  constructor(
    readonly code: PaymentRefusal,
    readonly detail?: string,
  ) {
    super(detail ? `${PAYMENT_REFUSALS[code]}: ${detail}` : PAYMENT_REFUSALS[code])
    this.name = 'PaymentRefused'
  }
}

/** The chain RPC or the facilitator is not configured or not reachable: 503, nothing granted. */
export class PaymentUnavailable extends Error {
  constructor(
    readonly code: 'PAYMENTS_NOT_CONFIGURED' | 'CHAIN_RPC_UNAVAILABLE' | 'FACILITATOR_UNAVAILABLE',
    message: string,
  ) {
    super(message)
    this.name = 'PaymentUnavailable'
  }

  toApiError(): ApiError {
    return new ApiError(503, this.code, this.message, {}, { 'retry-after': '30' })
  }
}

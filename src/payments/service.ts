// Paying for one request with x402, and spending a transaction proof for something bought
// (credits, a minted key, a sandbox credit key). A proof is recorded as spent before the answer
// that depends on it, and only once: concurrent uses of one proof let exactly one through.
import type { Hex } from 'viem'
import type { Config } from '../config'
import type { Clock } from '../clock'
import { ApiError } from '../http/errors'
import { checkAuthorization } from './authorization'
import { verifyTransfer, type VerifiedTransfer } from './chain-proof'
import { PaymentRefused, PaymentUnavailable } from './errors'
import { verifyAndSettle } from './facilitator'
import { chainIdOf } from './networks'
import { paymentProof, transactionProofOf, type PaymentProof } from './proof'
import { atomicAmount, paymentRequired, v1Requirement, v2Requirement } from './requirements'
import type { PaymentStore } from './store'

export interface PaymentDeps {
  config: Config
  clock: Clock
  payments: PaymentStore
}

export interface PaidRequest {
  /** The spent proof's reference, recorded with the audit row of what it paid for. */
  reference: string
  payer: string | null
  /** base64 JSON settlement response for the PAYMENT-RESPONSE header. */
  responseHeader: string
}

export interface PaymentContext {
  resourceUrl: string
  price: string
  description: string
  purpose: string
}

const referenceOfTransaction = (config: Config, txHash: Hex) => `tx:${chainIdOf(config.x402.network)}:${txHash.toLowerCase()}`
const referenceOfAuthorization = (config: Config, from: string, nonce: string) => `auth:${chainIdOf(config.x402.network)}:${config.x402.asset.toLowerCase()}:${from.toLowerCase()}:${nonce.toLowerCase()}`

/** A refusal as the 402 answer, with the requirements so the client can pay again. */
export function refusalAnswer(config: Config, context: PaymentContext, refusal: PaymentRefused): ApiError {
  const { body, header } = paymentRequired(config, context.resourceUrl, context.price, context.description)
  const { error: _error, message: _message, ...requirements } = body
  return new ApiError(402, refusal.code, refusal.message, requirements, { 'payment-required': header })
}

function settlementHeader(transaction: string, network: string, payer: string | null): string {
  return Buffer.from(JSON.stringify({ success: true, transaction, network, payer })).toString('base64')
}

/** Maps payment failures to answers: refusals → 402 with requirements, outages → 503. */
export async function answeringPaymentErrors<T>(config: Config, context: PaymentContext, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof PaymentRefused) throw refusalAnswer(config, context, error)
    if (error instanceof PaymentUnavailable) throw error.toApiError()
    throw error
  }
}

async function payWithAuthorization(deps: PaymentDeps, proof: PaymentProof & { kind: 'authorization' }, context: PaymentContext): Promise<PaidRequest> {
  const { config } = deps
  const price = BigInt(atomicAmount(context.price))
  const now = deps.clock.now()
  await checkAuthorization(config, proof, price, now)
  // Before the claim: a server that cannot settle must not spend the client's authorization.
  if (!config.x402.facilitatorUrl) throw new PaymentUnavailable('PAYMENTS_NOT_CONFIGURED', 'signed x402 payments need X402_FACILITATOR_URL on this server')
  const { authorization } = proof
  const reference = referenceOfAuthorization(config, authorization.from, authorization.nonce)
  const claimed = await deps.payments.claim({ reference, kind: 'authorization', purpose: context.purpose, network: config.x402.network, payer: authorization.from.toLowerCase(), amount_atomic: authorization.value, created_at: new Date(now).toISOString() })
  if (!claimed) throw new PaymentRefused('PAYMENT_REPLAYED')
  const requirements = proof.x402Version === 2 ? v2Requirement(config, context.price) : v1Requirement(config, context.price, context.resourceUrl, context.description)
  try {
    const settlement = await verifyAndSettle(config, proof, requirements)
    await deps.payments.settle(reference, settlement.transaction, new Date(deps.clock.now()).toISOString())
    return { reference, payer: settlement.payer ?? authorization.from, responseHeader: settlementHeader(settlement.transaction, settlement.network, settlement.payer ?? authorization.from) }
  } catch (error) {
    // Refused: the nonce stays spent here and the client signs a fresh authorization. The
    // facilitator unreachable: nothing was taken, so the authorization stays usable (if a
    // settlement did land, the chain refuses the nonce a second time).
    if (error instanceof PaymentRefused) await deps.payments.fail(reference)
    else await deps.payments.release(reference)
    throw error
  }
}

async function payWithTransaction(deps: PaymentDeps, proof: PaymentProof & { kind: 'transaction' }, context: PaymentContext): Promise<PaidRequest> {
  const transfer = await verifyTransfer(deps.config, proof, BigInt(atomicAmount(context.price)), deps.clock.now())
  const result = await spendTransfer(deps, transfer, context.purpose, () => null)
  if (!result.spent) throw new PaymentRefused('PAYMENT_REPLAYED')
  return { reference: result.reference, payer: transfer.payer, responseHeader: settlementHeader(transfer.txHash, deps.config.x402.network, transfer.payer) }
}

/**
 * Pays for one request when it carries a payment header; null when it carries none. Answers
 * only after the payment is settled (signed authorizations) or its proof recorded (transactions).
 */
export async function payForRequest(deps: PaymentDeps, headers: Headers, context: PaymentContext): Promise<PaidRequest | null> {
  return answeringPaymentErrors(deps.config, context, async () => {
    const proof = paymentProof(headers)
    if (!proof) return null
    if (!deps.config.x402.payTo) throw new PaymentUnavailable('PAYMENTS_NOT_CONFIGURED', 'x402 payments are not configured on this server (X402_PAY_TO); send an API key instead')
    return proof.kind === 'authorization' ? payWithAuthorization(deps, proof, context) : payWithTransaction(deps, proof, context)
  })
}

/** Verifies the transaction proof an X-Payment header carries (credits, mint, sandbox x402 path). */
export async function verifiedTransferOf(deps: PaymentDeps, headers: Headers, minimumUsdc: string): Promise<VerifiedTransfer> {
  const proof = transactionProofOf(headers)
  if (!proof) throw new PaymentRefused('PAYMENT_MALFORMED', 'send X-Payment with the txHash of your transfer')
  return verifyTransfer(deps.config, proof, BigInt(atomicAmount(minimumUsdc)), deps.clock.now())
}

/**
 * Records a verified transfer as spent and grants in the same transaction; once per hash. A
 * transaction that settled a signed payment this service claimed is refused: it was paid for.
 */
export async function spendTransfer<T>(deps: PaymentDeps, transfer: VerifiedTransfer, purpose: string, grant: () => T): Promise<{ spent: true; reference: string; granted: T } | { spent: false }> {
  const reference = referenceOfTransaction(deps.config, transfer.txHash)
  const result = await deps.payments.spendTransaction(
    { reference, kind: 'transaction', purpose, network: deps.config.x402.network, payer: transfer.payer.toLowerCase(), amount_atomic: transfer.amount.toString(), created_at: new Date(deps.clock.now()).toISOString() },
    grant,
    transfer.authorizations.map(({ from, nonce }) => referenceOfAuthorization(deps.config, from, nonce)),
  )
  return result.spent ? { spent: true, reference, granted: result.granted } : { spent: false }
}


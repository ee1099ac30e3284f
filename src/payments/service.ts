// Paying for one request with x402, and spending a transaction proof for something bought
// (credits, a minted key, a sandbox credit key). A proof is claimed before the answer that depends
// on it, and only once: concurrent uses of one proof let exactly one through. A per-request
// payment is taken only after its answer is logged; a purchase is spent in the transaction that
// grants it.
import type { Hex } from 'viem'
import type { Config } from '../config'
import type { Clock } from '../clock'
import { ApiError } from '../http/errors'
import { checkAuthorization } from './authorization'
import { verifyTransfer, type VerifiedTransfer } from './chain-proof'
import { PaymentRefused, PaymentUnavailable } from './errors'
import { settleWithFacilitator, verifyWithFacilitator } from './facilitator'
import { chainIdOf } from './networks'
import { paymentProof, transactionProofOf, type PaymentProof } from './proof'
import { v1Requirement } from './requirements'
import { atomicAmount } from '../catalogue/prices'
import { paymentRequired, v2Requirement } from '../catalogue/payment-requirements'
import type { PaymentStore, ProofClaim } from './store'
import type { Logger } from '../log'
import type { Step, Transactor } from '../store/transaction'

export interface PaymentDeps {
  config: Config
  clock: Clock
  log: Logger
  payments: PaymentStore
  /** Claims and purchases are units of work (a proof spent once across nodes). */
  transactor: Transactor
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

/**
 * A per-request payment whose proof is checked and claimed (no one else can use it meanwhile) but
 * not yet taken. The caller makes and logs its answer, then calls `take` (a signed authorization
 * is settled, a transfer recorded as spent) and answers only if that succeeds; when the answer
 * cannot be made it calls `release`, and the proof stays usable. So nobody is charged for an
 * answer not given (docs/payments.md, "Order of a paid answer").
 */
export interface PendingPayment {
  /** The proof's reference, recorded with the audit row of what it pays for. */
  reference: string
  /** Takes the payment; throws the 402 or 503 ApiError when it cannot be taken (the claim is then failed or released). */
  take(): Promise<PaidRequest>
  release(): Promise<void>
}

function pending(deps: PaymentDeps, context: PaymentContext, reference: string, take: () => Promise<PaidRequest>): PendingPayment {
  const release = () => deps.payments.release(reference)
  return {
    reference,
    release,
    take: () =>
      answeringPaymentErrors(deps.config, context, async () => {
        try {
          return await take()
        } catch (error) {
          // Unreachable: nothing was taken, the proof stays usable. Refused: it stays spent.
          if (error instanceof PaymentRefused) await deps.payments.fail(reference)
          else await release()
          throw error
        }
      }),
  }
}

async function claimAuthorization(deps: PaymentDeps, proof: PaymentProof & { kind: 'authorization' }, context: PaymentContext): Promise<PendingPayment> {
  const { config } = deps
  const price = BigInt(atomicAmount(context.price))
  const now = deps.clock.now()
  await checkAuthorization(config, proof, price, now)
  // Before the claim: a server that cannot settle must not spend the client's authorization.
  if (!config.x402.facilitatorUrl) throw new PaymentUnavailable('PAYMENTS_NOT_CONFIGURED', 'signed x402 payments need X402_FACILITATOR_URL on this server')
  const { authorization } = proof
  const reference = referenceOfAuthorization(config, authorization.from, authorization.nonce)
  const claim: ProofClaim = { reference, kind: 'authorization', purpose: context.purpose, network: config.x402.network, payer: authorization.from.toLowerCase(), amount_atomic: authorization.value, created_at: new Date(now).toISOString() }
  const claimed = await deps.transactor.run(() => deps.payments.claim(claim), { name: 'payment-claim' })
  if (!claimed) throw new PaymentRefused('PAYMENT_REPLAYED')
  const requirements = proof.x402Version === 2 ? v2Requirement(config, context.price) : v1Requirement(config, context.price, context.resourceUrl, context.description)
  const payment = pending(deps, context, reference, async () => {
    const settlement = await settleWithFacilitator(config, proof, requirements)
    const payer = settlement.payer ?? authorization.from
    await recordTaken(deps, reference, settlement.transaction)
    return { reference, payer, responseHeader: settlementHeader(settlement.transaction, settlement.network, payer) }
  })
  // Verified before the answer is made (no money moves): a payment the facilitator would refuse
  // never gets a receipt signed and logged for it.
  try {
    await verifyWithFacilitator(config, proof, requirements)
  } catch (error) {
    if (error instanceof PaymentRefused) await deps.payments.fail(reference)
    else await payment.release()
    throw error
  }
  return payment
}

async function claimTransaction(deps: PaymentDeps, proof: PaymentProof & { kind: 'transaction' }, context: PaymentContext): Promise<PendingPayment> {
  const transfer = await verifyTransfer(deps.config, proof, BigInt(atomicAmount(context.price)), deps.clock.now())
  const reference = referenceOfTransaction(deps.config, transfer.txHash)
  const claim = transferClaim(deps, transfer, reference, context.purpose)
  const claimed = await deps.transactor.run(() => deps.payments.claim(claim, settledAuthorizations(deps, transfer)), { name: 'payment-claim' })
  if (!claimed) throw new PaymentRefused('PAYMENT_REPLAYED')
  return pending(deps, context, reference, async () => {
    await recordTaken(deps, reference, transfer.txHash)
    return { reference, payer: transfer.payer, responseHeader: settlementHeader(transfer.txHash, deps.config.x402.network, transfer.payer) }
  })
}

/**
 * Marks a taken payment settled. The money has moved and the answer is logged, so a failed write
 * here does not withhold the answer; the claim then stays, which still refuses a replay.
 */
async function recordTaken(deps: PaymentDeps, reference: string, settlementTx: string): Promise<void> {
  try {
    await deps.payments.settle(reference, settlementTx, new Date(deps.clock.now()).toISOString())
  } catch (error) {
    deps.log.error('payment taken but not recorded as settled; it stays claimed', { reference, error: (error as Error).message })
  }
}

/**
 * Checks and claims the payment a request carries (null when it carries none); see
 * PendingPayment for what the caller does next. Refusals are 402 with the requirements, outages
 * 503; neither leaves the proof claimed unless the facilitator refused it.
 */
export async function claimPayment(deps: PaymentDeps, headers: Headers, context: PaymentContext): Promise<PendingPayment | null> {
  return answeringPaymentErrors(deps.config, context, async () => {
    const proof = paymentProof(headers)
    if (!proof) return null
    if (!deps.config.x402.payTo) throw new PaymentUnavailable('PAYMENTS_NOT_CONFIGURED', 'x402 payments are not configured on this server (X402_PAY_TO); send an API key instead')
    return proof.kind === 'authorization' ? claimAuthorization(deps, proof, context) : claimTransaction(deps, proof, context)
  })
}

/** Verifies the transaction proof an X-Payment header carries (credits, mint, sandbox x402 path). */
export async function verifiedTransferOf(deps: PaymentDeps, headers: Headers, minimumUsdc: string): Promise<VerifiedTransfer> {
  const proof = transactionProofOf(headers)
  if (!proof) throw new PaymentRefused('PAYMENT_MALFORMED', 'send X-Payment with the txHash of your transfer')
  return verifyTransfer(deps.config, proof, BigInt(atomicAmount(minimumUsdc)), deps.clock.now())
}

/**
 * Records a verified transfer as spent and grants in the same unit of work (`grant`'s steps: key,
 * credits, ledger, mail); once per hash across every node. A transaction that settled a signed
 * payment this service claimed is refused: it was paid for. On PostgreSQL the body may run more
 * than once (a serialization retry): `grant` only yields steps and computes.
 */
export async function spendTransfer<T>(deps: PaymentDeps, transfer: VerifiedTransfer, purpose: string, grant: () => Step<T>): Promise<{ spent: true; reference: string; granted: T } | { spent: false }> {
  const reference = referenceOfTransaction(deps.config, transfer.txHash)
  const claim = transferClaim(deps, transfer, reference, purpose)
  const conflicts = settledAuthorizations(deps, transfer)
  const { payments } = deps
  return deps.transactor.run(function* () {
    if (!(yield* payments.spend(claim, conflicts))) return { spent: false as const }
    return { spent: true as const, reference, granted: yield* grant() }
  }, { name: `payment-spend-${purpose}` })
}

function transferClaim(deps: PaymentDeps, transfer: VerifiedTransfer, reference: string, purpose: string): ProofClaim {
  return { reference, kind: 'transaction', purpose, network: deps.config.x402.network, payer: transfer.payer.toLowerCase(), amount_atomic: transfer.amount.toString(), created_at: new Date(deps.clock.now()).toISOString() }
}

/** The references of the signed authorizations a transaction settled: it was paid for under them. */
const settledAuthorizations = (deps: PaymentDeps, transfer: VerifiedTransfer) => transfer.authorizations.map(({ from, nonce }) => referenceOfAuthorization(deps.config, from, nonce))

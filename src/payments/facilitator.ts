// The x402 facilitator: POST /verify before the answer is made, POST /settle once it is logged
// (service.ts), with the payload as the client sent it and the requirements this service asks
// for. A network failure, a 5xx or a non-JSON answer is "unavailable" (503, nothing granted); a
// negative answer is a refusal (402).
import type { Config } from '../config'
import { PaymentRefused, PaymentUnavailable } from './errors'
import type { PaymentProof } from './proof'

const TIMEOUT_MS = 15_000

export interface Settlement {
  transaction: string
  network: string
  payer: string | null
}

async function post(base: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  let response: Response
  try {
    response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(TIMEOUT_MS) })
  } catch (error) {
    throw new PaymentUnavailable('FACILITATOR_UNAVAILABLE', `the x402 facilitator could not be reached (${(error as Error).name})`)
  }
  let answer: unknown
  try {
    answer = await response.json()
  } catch {
    throw new PaymentUnavailable('FACILITATOR_UNAVAILABLE', `the x402 facilitator answered ${response.status} without JSON`)
  }
  if (typeof answer !== 'object' || answer === null) throw new PaymentUnavailable('FACILITATOR_UNAVAILABLE', 'the x402 facilitator answered unexpectedly')
  if (response.status >= 500) throw new PaymentUnavailable('FACILITATOR_UNAVAILABLE', `the x402 facilitator failed (${response.status})`)
  return answer as Record<string, unknown>
}

function facilitatorRequest(config: Config, proof: PaymentProof & { kind: 'authorization' }, requirements: Record<string, unknown>) {
  const base = config.x402.facilitatorUrl
  if (!base) throw new PaymentUnavailable('PAYMENTS_NOT_CONFIGURED', 'signed x402 payments need X402_FACILITATOR_URL on this server')
  return { base, body: { x402Version: proof.x402Version, paymentPayload: proof.raw, paymentRequirements: requirements } }
}

/** Asks the facilitator whether the payment would settle; moves no money. */
export async function verifyWithFacilitator(config: Config, proof: PaymentProof & { kind: 'authorization' }, requirements: Record<string, unknown>): Promise<void> {
  const { base, body } = facilitatorRequest(config, proof, requirements)
  const verified = await post(base, '/verify', body)
  if (verified.isValid !== true) throw new PaymentRefused('PAYMENT_REJECTED', String(verified.invalidReason ?? verified.invalidMessage ?? 'invalid'))
}

/** Settles; returns only when the transfer is settled on chain. */
export async function settleWithFacilitator(config: Config, proof: PaymentProof & { kind: 'authorization' }, requirements: Record<string, unknown>): Promise<Settlement> {
  const { base, body } = facilitatorRequest(config, proof, requirements)
  const settled = await post(base, '/settle', body)
  if (settled.success !== true || typeof settled.transaction !== 'string') throw new PaymentRefused('PAYMENT_NOT_SETTLED', String(settled.errorReason ?? settled.errorMessage ?? 'not settled'))
  return { transaction: settled.transaction, network: String(settled.network ?? proof.network), payer: typeof settled.payer === 'string' ? settled.payer : null }
}

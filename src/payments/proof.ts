// Reading a payment proof from request headers. Three forms are accepted:
//  - `Payment-Signature` (x402 v2): base64 JSON PaymentPayload whose payload is an EIP-3009
//    TransferWithAuthorization {signature, authorization};
//  - `X-Payment` (x402 v1): base64 JSON (or raw JSON) PaymentPayload {x402Version: 1, scheme,
//    network, payload: {signature, authorization}};
//  - `X-Payment` carrying a transaction already sent (spec 4.1): {txHash, network, amount,
//    paymentAddress, memo}, base64 JSON or raw JSON. Its `amount` is informational only.
import type { Hex } from 'viem'
import { PaymentRefused } from './errors'

export interface TransferAuthorization {
  from: Hex
  to: Hex
  value: string
  validAfter: string
  validBefore: string
  nonce: Hex
}

export type PaymentProof =
  | {
      kind: 'authorization'
      x402Version: 1 | 2
      scheme: string
      network: string
      /** v2 only: the requirements the client accepted (asset, amount, payTo…). */
      accepted: Record<string, unknown> | null
      authorization: TransferAuthorization
      signature: Hex
      /** The decoded payload as sent, passed to the facilitator unchanged. */
      raw: Record<string, unknown>
    }
  | { kind: 'transaction'; txHash: Hex; network: string | null; declaredAmount: string | null; memo: string | null }

const MAX_HEADER_BYTES = 8192
const HEX = /^0x[0-9a-fA-F]*$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const TX_HASH = /^0x[0-9a-fA-F]{64}$/
const UINT = /^[0-9]{1,78}$/

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function decodeJson(header: string): Record<string, unknown> {
  if (header.length > MAX_HEADER_BYTES) throw new PaymentRefused('PAYMENT_MALFORMED', 'header too long')
  const text = header.trim()
  let decoded: unknown
  try {
    decoded = JSON.parse(text.startsWith('{') ? text : Buffer.from(text, 'base64').toString('utf8'))
  } catch {
    throw new PaymentRefused('PAYMENT_MALFORMED', 'not base64 JSON or JSON')
  }
  if (!isObject(decoded)) throw new PaymentRefused('PAYMENT_MALFORMED', 'not a JSON object')
  return decoded
}

function readAuthorization(payload: unknown): { authorization: TransferAuthorization; signature: Hex } {
  if (!isObject(payload) || !isObject(payload.authorization)) throw new PaymentRefused('PAYMENT_MALFORMED', 'payload.authorization is missing')
  const { signature } = payload
  const a = payload.authorization
  const ok =
    typeof signature === 'string' && HEX.test(signature) && signature.length >= 132 &&
    typeof a.from === 'string' && ADDRESS.test(a.from) &&
    typeof a.to === 'string' && ADDRESS.test(a.to) &&
    typeof a.value === 'string' && UINT.test(a.value) &&
    typeof a.validAfter === 'string' && UINT.test(a.validAfter) &&
    typeof a.validBefore === 'string' && UINT.test(a.validBefore) &&
    typeof a.nonce === 'string' && /^0x[0-9a-fA-F]{64}$/.test(a.nonce)
  if (!ok) throw new PaymentRefused('PAYMENT_MALFORMED', 'authorization fields are not well formed')
  return {
    signature: signature as Hex,
    authorization: { from: a.from as Hex, to: a.to as Hex, value: a.value as string, validAfter: a.validAfter as string, validBefore: a.validBefore as string, nonce: a.nonce as Hex },
  }
}

function authorizationProof(decoded: Record<string, unknown>): PaymentProof {
  const version = decoded.x402Version
  if (version === 2) {
    const accepted = decoded.accepted
    if (!isObject(accepted)) throw new PaymentRefused('PAYMENT_MALFORMED', 'accepted (the chosen requirements) is missing')
    return { kind: 'authorization', x402Version: 2, scheme: String(accepted.scheme), network: String(accepted.network), accepted, ...readAuthorization(decoded.payload), raw: decoded }
  }
  if (version === 1) {
    return { kind: 'authorization', x402Version: 1, scheme: String(decoded.scheme), network: String(decoded.network), accepted: null, ...readAuthorization(decoded.payload), raw: decoded }
  }
  throw new PaymentRefused('PAYMENT_MALFORMED', 'x402Version must be 1 or 2')
}

function transactionProof(decoded: Record<string, unknown>): PaymentProof {
  const { txHash } = decoded
  if (typeof txHash !== 'string' || !TX_HASH.test(txHash)) throw new PaymentRefused('PAYMENT_MALFORMED', 'txHash must be a 0x-prefixed 32-byte hash')
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value).slice(0, 200) : null)
  return { kind: 'transaction', txHash: txHash.toLowerCase() as Hex, network: text(decoded.network), declaredAmount: text(decoded.amount), memo: text(decoded.memo) }
}

/** The proof a request carries, null when it carries none; PaymentRefused when one is malformed. */
export function paymentProof(headers: Headers): PaymentProof | null {
  const v2 = headers.get('payment-signature')
  if (v2) return authorizationProof(decodeJson(v2))
  const v1 = headers.get('x-payment')
  if (!v1) return null
  const decoded = decodeJson(v1)
  return 'txHash' in decoded ? transactionProof(decoded) : authorizationProof(decoded)
}

/** Only a transaction proof (credits, mint, sandbox x402 path, which need the amount actually paid). */
export function transactionProofOf(headers: Headers): (PaymentProof & { kind: 'transaction' }) | null {
  const header = headers.get('x-payment')
  if (!header) return null
  const decoded = decodeJson(header)
  if (!('txHash' in decoded)) throw new PaymentRefused('PAYMENT_MALFORMED', 'this endpoint takes X-Payment with the txHash of a transfer already sent')
  return transactionProof(decoded) as PaymentProof & { kind: 'transaction' }
}

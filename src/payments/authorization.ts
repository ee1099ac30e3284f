// Local checks of an EIP-3009 TransferWithAuthorization before anything is sent to the
// facilitator: scheme, network, asset, recipient, amount, validity window and the EIP-712
// signature (cheap rejection of bad payments without a network round trip).
import { getAddress, verifyTypedData, type Hex } from 'viem'
import type { Config } from '../config'
import { PaymentRefused } from './errors'
import { chainIdOf } from './networks'
import type { PaymentProof } from './proof'

export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const

/** Settlement must still fit in the window: refuse authorizations about to lapse. */
const MIN_REMAINING_SECONDS = 6

export async function checkAuthorization(config: Config, proof: PaymentProof & { kind: 'authorization' }, price: bigint, now: number): Promise<void> {
  const { x402 } = config
  const chainId = chainIdOf(x402.network)
  if (proof.scheme !== 'exact') throw new PaymentRefused('PAYMENT_WRONG_SCHEME')
  if (chainIdOf(proof.network) !== chainId) throw new PaymentRefused('PAYMENT_WRONG_NETWORK', `this service takes ${x402.network}`)
  if (proof.accepted && typeof proof.accepted.asset === 'string' && proof.accepted.asset.toLowerCase() !== x402.asset.toLowerCase()) throw new PaymentRefused('PAYMENT_WRONG_ASSET')
  const { authorization } = proof
  if (authorization.to.toLowerCase() !== x402.payTo!.toLowerCase()) throw new PaymentRefused('PAYMENT_WRONG_RECIPIENT')
  if (BigInt(authorization.value) < price) throw new PaymentRefused('PAYMENT_INSUFFICIENT', `authorized ${authorization.value} atomic units, the price is ${price}`)
  const seconds = Math.floor(now / 1000)
  if (BigInt(authorization.validAfter) > BigInt(seconds)) throw new PaymentRefused('PAYMENT_NOT_YET_VALID')
  if (BigInt(authorization.validBefore) < BigInt(seconds + MIN_REMAINING_SECONDS)) throw new PaymentRefused('PAYMENT_EXPIRED')
  let valid = false
  try {
    valid = await verifyTypedData({
      address: getAddress(authorization.from),
      domain: { name: x402.assetName, version: x402.assetVersion, chainId: chainId!, verifyingContract: getAddress(x402.asset) },
      types: TRANSFER_WITH_AUTHORIZATION_TYPES,
      primaryType: 'TransferWithAuthorization',
      message: {
        from: getAddress(authorization.from),
        to: getAddress(authorization.to),
        value: BigInt(authorization.value),
        validAfter: BigInt(authorization.validAfter),
        validBefore: BigInt(authorization.validBefore),
        nonce: authorization.nonce,
      },
      signature: proof.signature as Hex,
    })
  } catch {
    valid = false
  }
  if (!valid) throw new PaymentRefused('PAYMENT_BAD_SIGNATURE')
}

// The x402 v1 form of the requirement a 402 answer offers (catalogue/payment-requirements.ts):
// never offered to a client, only sent to the facilitator with a v1 payload (X-Payment v1), so
// it is protocol, with the chain's v1 common name.
import type { Config } from '../config'
import { atomicAmount } from '../catalogue/prices'
import { chainIdOf, commonNameOf } from './networks'

/** The same requirement in x402 v1 form (for X-Payment v1 payloads sent to the facilitator). */
export function v1Requirement(config: Config, price: string, resourceUrl: string, description: string) {
  const x402 = config.x402
  const chainId = chainIdOf(x402.network)
  return {
    scheme: 'exact',
    network: (chainId !== null && commonNameOf(chainId)) || x402.network,
    maxAmountRequired: atomicAmount(price),
    resource: resourceUrl,
    description,
    mimeType: 'application/json',
    payTo: x402.payTo!,
    maxTimeoutSeconds: 60,
    asset: x402.asset,
    extra: { name: x402.assetName, version: x402.assetVersion },
  }
}

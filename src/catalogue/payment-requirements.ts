// The x402 payment requirements a 402 answer carries (v2 shape, with the v1-era top-level
// payTo and amount the main spec names): the offer of one request at a price, in the words
// x402 clients read. Checking a payment against it is payments' (payments/service.ts).
import type { Config } from '../config'
import { atomicAmount } from './prices'

/** The one v2 requirement this service offers (the client echoes it as `accepted`). */
export function v2Requirement(config: Config, price: string) {
  const x402 = config.x402
  return { scheme: 'exact', network: x402.network, amount: atomicAmount(price), asset: x402.asset, payTo: x402.payTo!, maxTimeoutSeconds: 60, extra: { name: x402.assetName, version: x402.assetVersion } }
}

export function paymentRequired(config: Config, resourceUrl: string, price: string, description: string) {
  const x402 = config.x402
  const accepts = x402.payTo ? [v2Requirement(config, price)] : []
  const body = {
    x402Version: 2,
    error: 'PAYMENT_REQUIRED',
    message: x402.payTo
      ? `send an API key in X-Oracle-Key, or pay ${price} USDC per request with x402 (Payment-Signature or X-Payment)`
      : 'send an API key in X-Oracle-Key (x402 payments are not configured on this server)',
    resource: { url: resourceUrl, description, mimeType: 'application/json' },
    accepts,
    payTo: x402.payTo,
    amount: price,
    currency: 'USDC',
  }
  return { body, header: Buffer.from(JSON.stringify({ x402Version: 2, error: body.error, resource: body.resource, accepts })).toString('base64') }
}

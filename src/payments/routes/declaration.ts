// GET /x402: what this service accepts for x402 payments, from configuration and the payments log.
import { Elysia, t } from 'elysia'
import type { PaymentsDeps } from '../deps'
import { responses } from '../../http/openapi'

export function x402DeclarationRoutes(deps: PaymentsDeps) {
  return new Elysia({ name: 'payments-declaration' }).get(
    '/x402',
    async () => {
      const { x402, publicBaseUrl } = deps.config
      const stats = await deps.payments.stats()
      return {
        x402_compatible: x402.payTo !== null,
        x402_versions: [1, 2],
        network: x402.network,
        asset: x402.asset,
        pay_to: x402.payTo,
        prices_usdc: { '/v5/status': x402.statusPrice, '/v5/batch': x402.batchPrice },
        facilitator: x402.facilitatorUrl,
        first_payment_at: stats.first_settled_at,
        payment_count: stats.settled,
        payment_proof: {
          'Payment-Signature': 'x402 v2: base64 JSON PaymentPayload with an EIP-3009 TransferWithAuthorization (verified locally, then settled through the facilitator)',
          'X-Payment': 'x402 v1 PaymentPayload (same), or base64/raw JSON {txHash, network, amount, paymentAddress, memo} of a transfer already sent (verified on chain; amount read from the Transfer log)',
        },
        discovery: `${publicBaseUrl}/v5/status`,
        awesome_x402: null,
        foundation: 'https://www.x402.org',
      }
    },
    {
      detail: {
        tags: ['payments'],
        summary: 'x402 declaration',
        responses: responses({ 200: ['x402 declaration', t.Object({ x402_compatible: t.Boolean(), network: t.String(), facilitator: t.Union([t.String(), t.Null()]), first_payment_at: t.Union([t.String(), t.Null()]) }, { additionalProperties: true })] }),
      },
    },
  )
}

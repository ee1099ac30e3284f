// POST /v5/x402/mint {tx_hash, tier, email?}: a paid key from an on-chain transfer to payTo of at
// least the plan's price. The hash is spent in the same transaction that creates the key, once
// forever (409 afterwards). A key lasts 30 days per price paid (at most 12 periods).
import { Elysia, t } from 'elysia'
import type { PaymentsDeps } from '../deps'
import { ApiError, badRequest } from '../../http/errors'
import { readBodyText } from '../../http/body'
import { jsonBody, responses } from '../../http/openapi'
import { PaymentRefused, PaymentUnavailable } from '../errors'
import { verifyTransfer } from '../chain-proof'
import { spendTransfer } from '../service'
import { atomicAmount } from '../../catalogue/prices'
import { MINT_MAX_PERIODS, MINT_PERIOD_DAYS, MINT_TIERS } from '../../catalogue/mint-tiers'

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/

async function readBody(request: Request, deps: Pick<PaymentsDeps, 'config' | 'log'>): Promise<Record<string, unknown>> {
  // 413 from Content-Length or while reading, 408 when it stalls (http/body.ts).
  const text = await readBodyText(request, 4096, deps)
  try {
    const body = JSON.parse(text)
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body
  } catch {
    // fall through
  }
  throw badRequest('BAD_REQUEST', 'body must be a JSON object {tx_hash, tier, email?}')
}

export function mintRoutes(deps: PaymentsDeps) {
  return new Elysia({ name: 'payments-mint' }).post(
    '/v5/x402/mint',
    async ({ request }) => {
      const body = await readBody(request, deps)
      const txHash = typeof body.tx_hash === 'string' ? body.tx_hash.trim().toLowerCase() : ''
      if (!/^0x[0-9a-f]{64}$/.test(txHash)) throw badRequest('INVALID_TX_HASH', 'tx_hash must be a 0x-prefixed 32-byte transaction hash')
      const tier = body.tier
      if (tier !== 'builder' && tier !== 'pro') throw badRequest('INVALID_TIER', 'tier must be "builder" or "pro"')
      const email = body.email === undefined || body.email === null ? null : typeof body.email === 'string' && EMAIL.test(body.email.trim()) ? body.email.trim() : undefined
      if (email === undefined) throw badRequest('INVALID_EMAIL', 'email must be an e-mail address')
      const plan = MINT_TIERS[tier]
      const price = BigInt(atomicAmount(plan.priceUsdc))
      let transfer
      try {
        transfer = await verifyTransfer(deps.config, { txHash: txHash as `0x${string}`, network: null }, price, deps.clock.now())
      } catch (error) {
        if (error instanceof PaymentUnavailable) throw error.toApiError()
        if (error instanceof PaymentRefused) throw new ApiError(400, error.code === 'PAYMENT_INSUFFICIENT' ? 'INSUFFICIENT_AMOUNT' : error.code, error.message)
        throw error
      }
      const periods = Math.min(MINT_MAX_PERIODS, Number(transfer.amount / price))
      const now = deps.clock.now()
      const expiresAt = new Date(now + periods * MINT_PERIOD_DAYS * 86_400_000).toISOString()
      const result = await spendTransfer(deps, transfer, `mint:${tier}`, function* () {
        const issued = yield* deps.accountWrites.issueKey({ plan: tier, keyClass: 'paid', email, creditBalance: 0, now, expiresAt })
        if (email) yield* deps.keyMail({ to: email, key: issued.key, product: tier, now })
        return issued
      })
      if (!result.spent) throw new ApiError(409, 'TX_ALREADY_USED', 'this transaction was already used to mint a key')
      if (email) deps.mail.wake()
      deps.log.info('key minted', { tier, key_prefix: result.granted.key.slice(0, 17), periods })
      return { api_key: result.granted.key, tier, daily_limit: plan.dailyLimit, expires_at: expiresAt, email_sent: email !== null }
    },
    {
      parse: 'none',
      detail: {
        tags: ['payments'],
        summary: 'Mint a paid key from an on-chain USDC transfer (builder 99, pro 299)',
        requestBody: jsonBody(t.Object({ tx_hash: t.String({ pattern: '^0x[0-9a-fA-F]{64}$' }), tier: t.Union([t.Literal('builder'), t.Literal('pro')]), email: t.Optional(t.String({ format: 'email' })) })),
        responses: responses({
          200: ['Minted key (api_key shown once)', t.Object({ api_key: t.String(), tier: t.String(), daily_limit: t.Integer(), expires_at: t.String({ format: 'date-time' }), email_sent: t.Boolean() })],
          400: 'INVALID_TX_HASH, INVALID_TIER, INVALID_EMAIL, INSUFFICIENT_AMOUNT, PAYMENT_WRONG_RECIPIENT, PAYMENT_NOT_FOUND, PAYMENT_TOO_OLD…',
          409: 'TX_ALREADY_USED',
          503: 'PAYMENTS_NOT_CONFIGURED or CHAIN_RPC_UNAVAILABLE',
        }),
      },
    },
  )
}

// POST /v5/credits/purchase (key + X-Payment transaction proof) and GET /v5/credits/balance.
import { Elysia, t } from 'elysia'
import type { PaymentsDeps } from '../deps'
import { API_KEY_HEADER } from '../../http/auth'
import { requireAccount } from '../../accounts/key-check'
import { responses } from '../../http/openapi'
import { ApiError } from '../../http/errors'
import { answeringPaymentErrors, spendTransfer, verifiedTransferOf } from '../service'
import { PaymentRefused } from '../errors'
import { CREDIT_PACKS, creditsFor } from '../../catalogue/credit-packs'

const SMALLEST_PACK_USDC = '0.001'

export function creditRoutes(deps: PaymentsDeps) {
  return new Elysia({ name: 'payments-credits' })
    .post(
      '/v5/credits/purchase',
      async ({ request }) => {
        const account = await requireAccount(deps, request.headers.get(API_KEY_HEADER))
        // Only free-plan keys (svc_free_, svc_crd_) ever spend credits; refused before the transfer
        // is spent, so it can still buy credits for a key that uses them.
        if (account.plan !== 'free') throw new ApiError(403, 'CREDITS_NOT_USABLE', `a ${account.plan} key never spends credits; buy them for a free or credit key (svc_free_, svc_crd_)`)
        const context = { resourceUrl: `${deps.config.publicBaseUrl}/v5/credits/purchase`, price: SMALLEST_PACK_USDC, description: 'Prepaid credits (1 credit = 1 request)', purpose: 'credits' }
        return answeringPaymentErrors(deps.config, context, async () => {
          const transfer = await verifiedTransferOf(deps, request.headers, SMALLEST_PACK_USDC)
          const credits = creditsFor(transfer.amount)
          const now = new Date(deps.clock.now()).toISOString()
          const result = await spendTransfer(deps, transfer, 'credits', function* () {
            const balance = yield* deps.accountWrites.grantCredits(account.id, credits)
            yield* deps.creditLedger.record(account.id, credits, 'grant', `tx:${transfer.txHash}`, now)
            return balance
          })
          if (!result.spent) throw new PaymentRefused('PAYMENT_REPLAYED')
          return { credits_added: credits, new_balance: result.granted, tier: 'credits', paid_atomic: transfer.amount.toString() }
        })
      },
      {
        detail: {
          tags: ['payments'],
          summary: 'Buy credits with an on-chain USDC transfer (X-Payment: {txHash, …})',
          description: `Credits come from the amount paid on chain, by packs largest first: ${CREDIT_PACKS.map((pack) => `${Number(pack.atomic) / 1e6} USDC → ${pack.credits}`).join(', ')}.`,
          responses: responses({
            200: ['Credit purchase', t.Object({ credits_added: t.Integer(), new_balance: t.Integer(), tier: t.String(), paid_atomic: t.String() })],
            401: 'API_KEY_REQUIRED',
            402: 'PAYMENT_* (missing, insufficient, replayed, wrong recipient…) or ACCOUNT_INACTIVE',
            403: 'INVALID_API_KEY, or CREDITS_NOT_USABLE: the key is not on the free plan (paid, sandbox and Evidence keys never spend credits)',
            503: 'PAYMENTS_NOT_CONFIGURED or CHAIN_RPC_UNAVAILABLE (nothing granted)',
          }),
        },
      },
    )
    .get(
      '/v5/credits/balance',
      async ({ request }) => {
        const account = await requireAccount(deps, request.headers.get(API_KEY_HEADER))
        // Read past the one-second key cache: requireAccount (here or in a purchase just before)
        // may have cached the row from before the purchase.
        const fresh = (await deps.accounts.findByHashFresh(account.key_hash)) ?? account
        return { balance: fresh.credit_balance, estimated_requests_remaining: fresh.credit_balance, last_purchased: await deps.creditLedger.lastGrantAt(account.id) }
      },
      {
        detail: {
          tags: ['payments'],
          summary: 'Credit balance of the calling key',
          responses: responses({
            200: ['Credit balance', t.Object({ balance: t.Integer(), estimated_requests_remaining: t.Integer(), last_purchased: t.Union([t.String({ format: 'date-time' }), t.Null()]) })],
            401: 'API_KEY_REQUIRED',
            402: 'ACCOUNT_INACTIVE',
            403: 'INVALID_API_KEY',
          }),
        },
      },
    )
}

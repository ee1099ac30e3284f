// The x402 path of POST /v5/sandbox: an on-chain transfer of at least 0.001 USDC buys a credit
// key (svc_crd_) holding 10 credits, with no e-mail. The proof is spent in the same transaction
// that creates the key, so one transfer makes one key however many requests carry it.
import type { PurchaseDeps } from './deps'
import { displayPrefix } from '../accounts/keys'
import { PaymentRefused } from './errors'
import { answeringPaymentErrors, spendTransfer, verifiedTransferOf } from './service'
import { SANDBOX_X402_CREDITS, SANDBOX_X402_PRICE_USDC } from '../catalogue/prices'

export interface SandboxCreditKey {
  api_key: string
  key_prefix: string
  tier: 'credits'
  credits: number
  email_captured: false
  paid_atomic: string
}

export async function buySandboxCreditKey(deps: PurchaseDeps, headers: Headers): Promise<SandboxCreditKey> {
  const context = { resourceUrl: `${deps.config.publicBaseUrl}/v5/sandbox`, price: SANDBOX_X402_PRICE_USDC, description: `Sandbox credit key (${SANDBOX_X402_CREDITS} credits)`, purpose: 'sandbox' }
  return answeringPaymentErrors(deps.config, context, async () => {
    const transfer = await verifiedTransferOf(deps, headers, SANDBOX_X402_PRICE_USDC)
    const now = deps.clock.now()
    const result = await spendTransfer(deps, transfer, 'sandbox', function* () {
      const issued = yield* deps.accountWrites.issueKey({ plan: 'free', keyClass: 'credit', email: null, creditBalance: SANDBOX_X402_CREDITS, now })
      yield* deps.creditLedger.record(issued.accountId, SANDBOX_X402_CREDITS, 'grant', `tx:${transfer.txHash}`, new Date(now).toISOString())
      return issued.key
    })
    if (!result.spent) throw new PaymentRefused('PAYMENT_REPLAYED')
    const key = result.granted
    return { api_key: key, key_prefix: displayPrefix(key), tier: 'credits', credits: SANDBOX_X402_CREDITS, email_captured: false, paid_atomic: transfer.amount.toString() }
  })
}

// What this installation can actually do for someone who wants a key or more requests, read from
// its configuration. Every answer, e-mail, document and the /pricing page offers only these, so a
// fresh install with nothing configured never sends anyone to a route that answers 503.
import { PADDLE_PRICE_VARIABLES, type Config, type PaddleProduct } from '../config'

export const PADDLE_PRODUCTS = Object.keys(PADDLE_PRICE_VARIABLES) as PaddleProduct[]
export type PaidPlan = 'builder' | 'pro'
export type WitnessPlan = 'custody_90d' | 'custody_1y'

export interface Capabilities {
  /** Keys sent by e-mail (POST /v5/keys/request; sandbox keys mailed too): SMTP_URL. */
  emailKeys: boolean
  /** x402 per request on /v5/status and /v5/batch: X402_PAY_TO (the 402 answer offers it). */
  x402PerRequest: boolean
  /** On-chain transfer proofs: credits for a key, minted paid keys, the sandbox credit key (X402_PAY_TO and CHAIN_RPC_URL). */
  x402Transfers: boolean
  /**
   * A card checkout that ends with a key in the buyer's mailbox: PADDLE_API_KEY, the product's
   * price id, PADDLE_WEBHOOK_SECRET (the purchase event that makes the key) and SMTP_URL (the
   * key is e-mailed). Missing any of them, a buyer would pay and get nothing.
   */
  card: Record<PaddleProduct, boolean>
  /** A custody plan can be bought: by card here, or at WITNESS_CHECKOUT_URL when the operator set it. */
  witness: Record<WitnessPlan, boolean>
}

export function capabilities(config: Config): Capabilities {
  const mail = config.mail.smtpUrl !== null
  const cardReady = config.paddle.apiKey !== null && config.paddle.webhookSecrets.length > 0 && mail
  const card = Object.fromEntries(PADDLE_PRODUCTS.map((product) => [product, cardReady && Boolean(config.paddle.prices[product])])) as Record<PaddleProduct, boolean>
  const ownCheckout = config.witness.checkoutUrl !== `${config.publicBaseUrl}/v5/checkout`
  return {
    emailKeys: mail,
    x402PerRequest: config.x402.payTo !== null,
    x402Transfers: config.x402.payTo !== null && config.x402.chainRpcUrl !== null,
    card,
    witness: { custody_90d: ownCheckout || card.custody_90d, custody_1y: ownCheckout || card.custody_1y },
  }
}

/** A builder or pro key can be bought (minted on chain or by card). */
export const canBuyPlan = (can: Capabilities, plan: PaidPlan) => can.x402Transfers || can.card[plan]

/** Credits can be bought: for a key on chain, or as a 1,000-credit key by card. */
export const canBuyCredits = (can: Capabilities) => can.x402Transfers || can.card.credits

/** Anything that raises a free or sandbox key's allowance is for sale here. */
export const canUpgrade = (can: Capabilities) => canBuyPlan(can, 'builder') || canBuyPlan(can, 'pro') || canBuyCredits(can)

// What the payments domain's functions take, built up from paying (PaymentDeps, service.ts): the
// purchases and the routes (types only: a full set of the app's dependencies satisfies each).
import type { PaddleProduct } from '../config'
import type { RateLimiter } from '../http/rate-limit'
import type { Step } from '../store/transaction'
import type { AccountWrites } from '../accounts/account-writes'
import type { KeyCheckDeps, SandboxKeyDeps } from '../accounts/deps'
import type { PaymentDeps } from './service'
import type { CreditLedger } from './credits'
import type { PaddleEventHandler } from './paddle/handler'

/** A purchase spent with a transfer proof (sandbox-credit-key.ts, the credits route): a key or credits written in the same unit of work. */
export interface PurchaseDeps extends PaymentDeps {
  /** Account writes that join a payment's unit of work (steps). */
  accountWrites: AccountWrites
  creditLedger: CreditLedger
}

/** The payment surfaces (routes/): credits, mint, checkout, the Paddle webhook, /x402, /v5/sandbox. */
export interface PaymentsDeps extends PurchaseDeps, KeyCheckDeps, SandboxKeyDeps {
  /** Stores the e-mail that carries a newly bought key (a step: joins the caller's unit of work); the outbox row id. */
  keyMail: (mail: { to: string; key: string; product: PaddleProduct | 'builder' | 'pro'; now: number }) => Step<number>
  /** Applies one verified Paddle notification (once per event id). */
  paddleEvents: PaddleEventHandler
  /** POST /v5/checkout per client address: each call creates a transaction at the billing provider. */
  checkoutLimiter: RateLimiter
}

// The payment surfaces as one plugin (see audit/routes/index.ts for why).
import { Elysia } from 'elysia'
import type { PaymentsDeps } from '../deps'
import { creditRoutes } from './credits'
import { mintRoutes } from './mint'
import { checkoutRoutes } from './checkout'
import { paddleRoutes } from './paddle'
import { x402DeclarationRoutes } from './declaration'
import { sandboxRoutes } from './sandbox'

export function paymentRoutes(deps: PaymentsDeps) {
  return new Elysia({ name: 'payment-routes' })
    .use(creditRoutes(deps))
    .use(mintRoutes(deps))
    .use(checkoutRoutes(deps))
    .use(paddleRoutes(deps))
    .use(x402DeclarationRoutes(deps))
    .use(sandboxRoutes(deps))
}

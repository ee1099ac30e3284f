// The account surfaces as one plugin (app.ts composes one .use() per domain; see audit/routes/index.ts for why).
import { Elysia } from 'elysia'
import type { AccountsDeps } from '../deps'
import { instantKeyRoutes } from './instant'
import { emailKeyRoutes } from './email-key'
import { funnelRoutes } from './funnel'
import { accountRoute } from './account'
import { usageRoute } from './usage'
import { oauthTokenRoute } from './oauth-token'
import { oauthMetadataRoutes } from './oauth-metadata'
import { pricingRoutes } from './pricing'

export function accountRoutes(deps: AccountsDeps) {
  return new Elysia({ name: 'account-routes' })
    .use(instantKeyRoutes(deps))
    .use(emailKeyRoutes(deps))
    .use(funnelRoutes(deps))
    .use(accountRoute(deps))
    .use(usageRoute(deps))
    .use(oauthTokenRoute(deps))
    .use(oauthMetadataRoutes(deps))
    .use(pricingRoutes(deps))
}

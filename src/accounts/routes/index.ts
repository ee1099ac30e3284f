// The account surfaces as one plugin (app.ts composes one .use() per domain).
import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { accountRoute } from './account'
import { usageRoute } from './usage'
import { oauthTokenRoute } from './oauth-token'
import { oauthMetadataRoutes } from './oauth-metadata'

export function accountRoutes(deps: AppDeps) {
  return new Elysia({ name: 'account-routes' }).use(accountRoute(deps)).use(usageRoute(deps)).use(oauthTokenRoute(deps)).use(oauthMetadataRoutes(deps))
}

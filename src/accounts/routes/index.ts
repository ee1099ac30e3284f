// The self-service account surfaces as one plugin (see audit/routes/index.ts for why).
import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { instantKeyRoutes } from './instant'
import { emailKeyRoutes } from './email-key'
import { sandboxRoutes } from './sandbox'
import { funnelRoutes } from './funnel'

export function accountRoutes(deps: AppDeps) {
  return new Elysia({ name: 'account-routes' }).use(instantKeyRoutes(deps)).use(emailKeyRoutes(deps)).use(sandboxRoutes(deps)).use(funnelRoutes(deps))
}

// The delivery surfaces (stream and webhooks) as one plugin, composed by app.ts with one .use().
import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { streamRoutes } from './stream'

export function deliveryRoutes(deps: AppDeps) {
  return new Elysia({ name: 'delivery-routes' }).use(streamRoutes(deps, deps.delivery.streams))
}

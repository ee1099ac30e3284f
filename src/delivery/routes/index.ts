// The delivery surfaces (stream and webhooks) as one plugin, composed by app.ts with one .use().
import { Elysia } from 'elysia'
import type { DeliveryDeps } from '../deps'
import { streamRoutes } from './stream'
import { subscribeRoutes } from './subscribe'
import { listRoutes } from './list'
import { deleteRoutes } from './delete'
import { testRoutes } from './test'
import { healthRoutes } from './health'

export function deliveryRoutes(deps: DeliveryDeps) {
  return new Elysia({ name: 'delivery-routes' })
    .use(streamRoutes(deps, deps.delivery.streams))
    .use(healthRoutes(deps))
    .use(subscribeRoutes(deps))
    .use(listRoutes(deps))
    .use(deleteRoutes(deps))
    .use(testRoutes(deps))
}

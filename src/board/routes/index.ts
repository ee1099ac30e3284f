// The board's routes in one plugin: GET /v5/board, the venue, verify and witness pages and their
// assets. (GET / for a browser is answered by discovery/routes/index.ts with pages/board-page.ts.)
import { Elysia } from 'elysia'
import type { BoardDeps } from '../deps'
import { boardApiRoutes } from './board-api'
import { boardAssetRoutes } from './assets'
import { venuePageRoutes } from './venue-page'
import { verifyPageRoutes } from './verify-page'
import { witnessPageRoutes } from './witness-page'

export function boardRoutes(deps: BoardDeps) {
  return new Elysia({ name: 'board' }).use(boardApiRoutes(deps)).use(venuePageRoutes(deps)).use(verifyPageRoutes()).use(witnessPageRoutes(deps)).use(boardAssetRoutes())
}

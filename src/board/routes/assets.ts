// The pages' stylesheet, script and favicon, from the program itself. /favicon.ico (which
// browsers ask for on their own) points at the SVG icon.
import { Elysia, t } from 'elysia'
import { responses } from '../../http/openapi'
import { ASSET_PATHS, ASSETS, type Asset } from '../assets'

const serve = (asset: Asset) => ({ request }: { request: Request }) => {
  const headers = { 'content-type': asset.type, etag: asset.etag, 'cache-control': 'public, max-age=300' }
  if (request.headers.get('if-none-match') === asset.etag) return new Response(null, { status: 304, headers })
  return new Response(asset.body, { headers })
}

const doc = (summary: string, type: string) => ({ query: t.Object({}), detail: { tags: ['board'], summary, responses: responses({ 200: [summary, t.String(), type] }) } })

export function boardAssetRoutes() {
  return new Elysia({ name: 'board-assets' })
    .get(ASSET_PATHS.script, serve(ASSETS.script), doc('Script of the board pages (bundled at build time)', 'text/javascript'))
    .get(ASSET_PATHS.css, serve(ASSETS.css), doc('Stylesheet of the board pages', 'text/css'))
    .get(ASSET_PATHS.favicon, serve(ASSETS.favicon), doc('Icon of the board pages', 'image/svg+xml'))
    .get('/favicon.ico', () => new Response(null, { status: 308, headers: { location: ASSET_PATHS.favicon, 'cache-control': 'public, max-age=86400' } }), {
      query: t.Object({}),
      detail: { tags: ['board'], summary: 'The icon browsers ask for on their own: a redirect to the SVG icon', responses: { 308: { description: `Redirect to ${ASSET_PATHS.favicon}` } } },
    })
}

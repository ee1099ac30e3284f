// GET /docs: the interactive API reference, served entirely by this process (no CDN), so that
// it works on a machine without internet and inside the single binary. The Swagger UI files
// come from the swagger-ui-dist package and are embedded at build time.
import { Elysia } from 'elysia'
import bundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'text' }
import styles from 'swagger-ui-dist/swagger-ui.css' with { type: 'text' }

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>openbell API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
</head>
<body>
<noscript>This page needs JavaScript. The OpenAPI document itself is at <a href="/openapi.json">/openapi.json</a>.</noscript>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>`

// Kept in its own file (not inline) so a Content-Security-Policy without 'unsafe-inline' works.
const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });`

const cached = (body: string, type: string) => () =>
  new Response(body, { headers: { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'public, max-age=3600' } })

export function docsRoutes() {
  const hide = { detail: { hide: true } }
  return new Elysia({ name: 'discovery-docs' })
    .get('/docs', cached(PAGE, 'text/html'), hide)
    .get('/docs/assets/swagger-ui-bundle.js', cached(bundle, 'text/javascript'), hide)
    .get('/docs/assets/swagger-ui.css', cached(styles, 'text/css'), hide)
    .get('/docs/assets/init.js', cached(INIT, 'text/javascript'), hide)
}

// GET /docs: the interactive API reference, served entirely by this process (no CDN), so that
// it works on a machine without internet and inside the single binary. The Swagger UI files
// come from the swagger-ui-dist package and are embedded at build time.
import { Elysia, t } from 'elysia'
import { responses } from '../../http/openapi'
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

/**
 * What Swagger UI needs and nothing more: its script and styles from this origin (no inline
 * script or style), its icons as data: images, the OpenAPI document and "Try it out" requests to
 * this origin; never framed (clickjacking). test/browser/docs-page.test.ts renders every
 * operation and runs one under it in Chromium, with no violation reported.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

const cached = (body: string, type: string, extra: Record<string, string> = {}) => () =>
  new Response(body, { headers: { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'public, max-age=3600', ...extra } })

export function docsRoutes() {
  const doc = (summary: string, type: string) => ({ detail: { tags: ['discovery'], summary, responses: responses({ 200: [summary, t.String(), type] }) } })
  return new Elysia({ name: 'discovery-docs' })
    .get('/docs', cached(PAGE, 'text/html', { 'content-security-policy': DOCS_CSP, 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' }), doc('Interactive API reference (works offline)', 'text/html'))
    .get('/docs/assets/swagger-ui-bundle.js', cached(bundle, 'text/javascript'), doc('Script of the API reference page', 'text/javascript'))
    .get('/docs/assets/swagger-ui.css', cached(styles, 'text/css'), doc('Styles of the API reference page', 'text/css'))
    .get('/docs/assets/init.js', cached(INIT, 'text/javascript'), doc('Start-up script of the API reference page', 'text/javascript'))
}

// The page shell every board page shares (header, navigation, footer, the one stylesheet and
// the one script, both served by this process), and the headers a page is answered with: a
// strict Content-Security-Policy (no inline script or style, nothing from another origin, no
// framing), no referrer, and no caching of a page whose content changes every second.
import { html, type SafeHtml } from './html'
import { ASSET_PATHS } from './assets'

export type PageName = 'board' | 'venue' | 'verify' | 'witness' | 'error'

export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': PAGE_CSP,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cache-control': 'no-cache',
} as const

const NAV: { page: PageName; href: string; label: string }[] = [
  { page: 'board', href: '/', label: 'Board' },
  { page: 'verify', href: '/verify', label: 'Verify' },
  { page: 'witness', href: '/witness', label: 'Witness' },
]

export interface PageOptions {
  page: PageName
  title: string
  body: SafeHtml
  /** Extra data the script reads from <body data-…> (never inline script). */
  data?: Record<string, string>
}

export function pageDocument({ page, title, body, data = {} }: PageOptions): string {
  const dataAttributes = Object.entries({ page, ...data }).map(([name, value]) => html` data-${name}="${value}"`)
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title} · openbell</title>
<link rel="icon" href="${ASSET_PATHS.favicon}" type="image/svg+xml">
<link rel="stylesheet" href="${ASSET_PATHS.css}">
<script type="module" src="${ASSET_PATHS.script}"></script>
</head>
<body${dataAttributes}>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<a class="brand" href="/">openbell</a>
<nav aria-label="Pages"><ul>${NAV.map((item) => html`<li><a href="${item.href}"${item.page === page ? html` aria-current="page"` : ''}>${item.label}</a></li>`)}</ul></nav>
</header>
<main id="main" tabindex="-1">
${body}
</main>
<footer class="site">
<p>Unsigned views for people. An agent acts only on a signed receipt (<a href="/docs">API reference</a>) and treats UNKNOWN as CLOSED.</p>
</footer>
</body>
</html>`}\n`
}

export function pageResponse(options: PageOptions, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(pageDocument(options), { status, headers: { ...PAGE_HEADERS, ...headers } })
}

// GET /pricing: what this installation offers and sells (src/catalogue/pricing.ts), as JSON, or as
// a page for a browser (Accept naming text/html before, or without, application/json). Every
// upgrade_url points here unless WITNESS_PRICING_URL names the operator's own page.
import { Elysia, t } from 'elysia'
import type { AccountsDeps } from '../deps'
import { responses } from '../../http/openapi'
import { pricing } from '../../catalogue/pricing'
import { pricingPage } from '../pricing-page'

const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** The q-value of a media type in an Accept header (exact type only), or 0. */
function quality(accept: string, type: string): number {
  for (const part of accept.toLowerCase().split(',')) {
    const [range, ...params] = part.trim().split(';')
    if (range?.trim() !== type) continue
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='))
    return q ? Number(q.slice(2)) || 0 : 1
  }
  return 0
}

/** A browser asks for HTML by name; curl and fetch send * / * and get JSON. */
export function prefersHtml(accept: string | null): boolean {
  if (!accept) return false
  const html = quality(accept, 'text/html')
  return html > 0 && html >= quality(accept, 'application/json')
}

export function pricingRoutes(deps: AccountsDeps) {
  return new Elysia({ name: 'accounts-pricing' }).get(
    '/pricing',
    ({ request }) => {
      const offer = pricing(deps.config)
      const vary = { vary: 'Accept', 'cache-control': 'no-cache' }
      if (prefersHtml(request.headers.get('accept'))) return new Response(pricingPage(offer), { headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_POLICY, ...vary } })
      return new Response(JSON.stringify(offer), { headers: { 'content-type': 'application/json', ...vary } })
    },
    {
      detail: {
        tags: ['accounts'],
        summary: 'What this installation offers: free and sandbox keys, and only the plans, credits and payments that are configured, with prices (HTML for a browser)',
        responses: responses({ 200: ['Pricing (JSON; text/html when Accept asks for it)', t.Object({ issuer: t.String(), free: t.Object({}, { additionalProperties: true }), sandbox: t.Object({}, { additionalProperties: true }), plans: t.Object({}, { additionalProperties: true }), pay_per_request: t.Union([t.Object({}, { additionalProperties: true }), t.Null()]), credits: t.Union([t.Object({}, { additionalProperties: true }), t.Null()]), witness: t.Union([t.Object({}, { additionalProperties: true }), t.Null()]) })] }),
      },
    },
  )
}

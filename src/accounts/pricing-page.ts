// The pricing document as a small HTML page for people (GET /pricing with Accept: text/html):
// no script, no external resource, every value escaped.
import type { Pricing } from '../catalogue/pricing'

const escape = (value: unknown) => String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
const code = (value: unknown) => `<code>${escape(value)}</code>`
const row = (cells: unknown[], header = false) => `<tr>${cells.map((cell, i) => (header ? `<th scope="col">${cell}</th>` : i === 0 ? `<th scope="row">${cell}</th>` : `<td>${cell}</td>`)).join('')}</tr>`
const table = (caption: string, head: string[], rows: unknown[][]) => `<table><caption>${escape(caption)}</caption><thead>${row(head, true)}</thead><tbody>${rows.map((cells) => row(cells)).join('')}</tbody></table>`

function planRows(pricing: Pricing): unknown[][] {
  const rows: unknown[][] = [['free', escape(pricing.free.daily_limit.toLocaleString('en-US')), 'free', pricing.free.get.map((way) => code(way.request)).join('<br>')]]
  rows.push(['sandbox', `${pricing.sandbox.calls} calls in ${pricing.sandbox.days} days`, 'free', code(pricing.sandbox.get)])
  for (const [plan, offer] of Object.entries(pricing.plans)) {
    if (plan === 'free') continue
    const ways = [offer.mint, offer.checkout].filter(Boolean).map(code).join('<br>')
    const price = offer.price_usdc ? `${escape(offer.price_usdc)} USDC per ${escape(offer.period_days)} days on chain${offer.checkout ? '; by card at checkout' : ''}` : 'by card at checkout'
    rows.push([escape(plan), escape(Number(offer.daily_limit).toLocaleString('en-US')), price, ways])
  }
  return rows
}

export function pricingPage(pricing: Pricing): string {
  const sections = [table('Keys and plans', ['plan', 'requests per UTC day', 'price', 'how'], planRows(pricing))]
  if (pricing.pay_per_request) {
    const terms = pricing.pay_per_request
    sections.push(table('Pay per request without a key (x402)', ['endpoint', 'USDC per request', 'network'], Object.entries(terms.prices_usdc).map(([path, price]) => [code(path), escape(price), escape(terms.network)])))
  }
  if (pricing.credits) {
    const credits = pricing.credits
    sections.push(table('Credits (one request each past the free daily limit)', ['how', 'what'], credits.ways.map((way) => [code(way.request), escape(way.note)])))
    if (credits.packs_usdc) sections.push(table('Credit packs paid on chain', ['USDC', 'credits'], Object.entries(credits.packs_usdc).map(([usdc, count]) => [escape(usdc), escape(count)])))
  }
  if (pricing.witness) {
    sections.push(table('Checkpoint witness custody', ['plan', 'price', 'checkpoints per UTC day'], pricing.witness.plans.map((plan) => [escape(plan.name), `${escape(plan.amount_usd)} ${escape(plan.currency)} ${escape(plan.billing)}`, escape(plan.checkpoints_per_utc_day)])))
  }
  const nothingSold = Object.keys(pricing.plans).length === 1 && !pricing.pay_per_request && !pricing.credits && !pricing.witness
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pricing: ${escape(pricing.issuer)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#111;background:#fff}table{border-collapse:collapse;margin:1.5rem 0;width:100%}caption{text-align:left;font-weight:600;font-size:1.1rem;padding:.25rem 0}th,td{border:1px solid #888;padding:.4rem .6rem;text-align:left;vertical-align:top}code{font-size:.9em;word-break:break-all}</style>
</head>
<body>
<main>
<h1>Pricing: ${escape(pricing.issuer)}</h1>
<p>What this installation offers, read from its configuration. ${nothingSold ? 'Nothing is sold here: free and sandbox keys only.' : 'Only the ways to pay that are configured here are listed.'} The same as JSON: <code>curl -H 'Accept: application/json' …/pricing</code>.</p>
${sections.join('\n')}
</main>
</body>
</html>
`
}

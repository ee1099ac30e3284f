// The pages as HTML (what a browser without JavaScript reads): security headers, no inline
// script or style, assets served by the process, the venue page's content against the calendar
// API, the witness page's lookup (limits, refusals, escaping), and refused MICs.
import { describe, expect, test } from 'bun:test'
import { EXCHANGES } from '../../src/calendar/exchanges'
import { escapeHtml } from '../../src/board/html'
import { makeTestApp } from '../helpers/app'
import { clientKey, entryHash, submission } from '../helpers/checkpoints'

const NOW = '2026-11-26T14:45:00.000Z'
const t = makeTestApp({ now: NOW })
const HTML = { accept: 'text/html' }
const page = async (path: string, headers: Record<string, string> = HTML) => {
  const response = await t.request(path, { headers })
  return { response, text: await response.text() }
}

describe('page headers and markup', () => {
  for (const path of ['/', '/venue/XNYS', '/verify', '/witness', '/venue/NOPE']) {
    test(`${path}: strict CSP, no framing, nosniff, no referrer; no inline script, style or handler`, async () => {
      const { response, text } = await page(path)
      expect(response.status).toBe(path === '/venue/NOPE' ? 400 : 200)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      const csp = response.headers.get('content-security-policy')!
      expect(csp.split('; ')).toEqual(["default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "connect-src 'self'", "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'"])
      expect(csp).not.toContain('unsafe')
      expect(response.headers.get('x-frame-options')).toBe('DENY')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('referrer-policy')).toBe('no-referrer')
      // A page changes every second: revalidated on every visit, never shown from a cache as it was.
      expect(response.headers.get('cache-control')).toBe('no-cache')
      // Every script is a file of this origin; no inline script, style attribute or event handler.
      expect([...text.matchAll(/<script\b[^>]*>/g)].map((match) => match[0])).toEqual(['<script type="module" src="/assets/board.js">'])
      expect(text).not.toMatch(/<script[^>]*>[^<]+<\/script>/)
      expect(text).not.toMatch(/\sstyle=|<style\b|\son[a-z]+=/i)
      // Nothing is loaded from another origin (links to sources are navigation only).
      expect(text).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)="(https?:)?\/\//)
      expect(text).toContain('<html lang="en">')
    })
  }

  test('the assets are served by the process, with ETags; /favicon.ico points at the icon', async () => {
    for (const [path, type] of [
      ['/assets/board.js', 'text/javascript; charset=utf-8'],
      ['/assets/board.css', 'text/css; charset=utf-8'],
      ['/favicon.svg', 'image/svg+xml'],
    ] as const) {
      const response = await t.request(path)
      expect({ path, status: response.status, type: response.headers.get('content-type') }).toEqual({ path, status: 200, type })
      const etag = response.headers.get('etag')!
      expect(response.headers.get('cache-control')).toBe('public, max-age=300')
      expect((await response.text()).length).toBeGreaterThan(100)
      expect((await t.request(path, { headers: { 'if-none-match': etag } })).status).toBe(304)
    }
    const icon = await t.request('/favicon.ico')
    expect(icon.status).toBe(308)
    expect(icon.headers.get('location')).toBe('/favicon.svg')
    // The script was bundled for browsers: no Bun or Node imports left in it.
    const script = await (await t.request('/assets/board.js')).text()
    expect(script).not.toMatch(/from\s*["'](node:|bun:)/)
    expect(script).not.toContain('require(')
  })
})

describe('the board page without JavaScript', () => {
  test('every venue has a tile under its region, with its state, local time and next transition as text', async () => {
    const { text } = await page('/')
    const board = (await t.json('/v5/board')).body
    for (const venue of board.venues) {
      const tile = new RegExp(`<li class="tile state-${venue.status.toLowerCase()}" data-mic="${venue.mic}" data-status="${venue.status}"[\\s\\S]*?</li>`).exec(text)
      expect({ mic: venue.mic, found: Boolean(tile) }).toEqual({ mic: venue.mic, found: true })
      expect(tile![0]).toContain(`>${venue.status}</span>`)
      expect(tile![0]).toContain(`data-field="clock">${venue.local_time}<`)
    }
    const regionOrder = [...text.matchAll(/<h2 id="region-[^"]+">([^<]+) </g)].map((match) => match[1])
    expect(regionOrder).toEqual(board.regions.map(escapeHtml))
    // Thanksgiving: the special day is named on the XNYS tile.
    expect(text).toMatch(/data-mic="XNYS"[\s\S]*?Holiday: Thanksgiving Day/)
  })
})

describe('the venue page', () => {
  test("today's sessions, the next 30 days as /v5/calendar lists them, the year's holidays as /v5/holidays names them, clock changes, version and sources", async () => {
    const { text } = await page('/venue/XNYS')
    const calendar = (await t.json('/v5/calendar?mic=XNYS&from=2026-11-26&to=2026-12-25')).body
    const rows = [...text.matchAll(/<tr class="kind-([a-z_]+)"><td>(\d{4}-\d{2}-\d{2})<\/td>/g)].map((match) => ({ date: match[2], kind: match[1] }))
    const upcoming = rows.slice(0, 30)
    expect(upcoming).toEqual(calendar.days.map((day: { date: string; kind: string }) => ({ date: day.date, kind: day.kind })))
    const holidays = (await t.json('/v5/holidays?mic=XNYS&year=2026')).body.holidays
    expect(holidays.length).toBeGreaterThan(10)
    expect(rows.slice(30)).toEqual(holidays.map((day: { date: string; kind: string }) => ({ date: day.date, kind: day.kind })))
    for (const day of holidays) expect(text).toContain(`<td>${escapeHtml(day.name)}</td>`)
    const file = t.deps.calendars.calendar('XNYS')!.file
    expect(text).toContain(`<code>${file.data_version}</code>`)
    for (const source of file.sources) if (source.url) expect(text).toContain(`href="${escapeHtml(source.url)}"`)
    for (const [year, basis] of Object.entries(file.basis ?? {})) expect(text).toContain(`<tr><td>${year}</td><td>${basis}</td></tr>`)
    // New York's offset changes of 2026 and of the year ahead.
    expect(text).toContain('2026-03-08 07:00 UTC</time>: UTC-05:00 → UTC-04:00')
    expect(text).toContain('2026-11-01 06:00 UTC</time>: UTC-04:00 → UTC-05:00')
    expect(text).toContain('2027-03-14 07:00 UTC</time>: UTC-05:00 → UTC-04:00')
  })

  test('every venue has a page (lower-case MICs too); a zone without clock changes says so; a 24/7 venue has no holidays', async () => {
    for (const { mic } of EXCHANGES) {
      const { response } = await page(`/venue/${mic.toLowerCase()}`)
      expect({ mic, status: response.status }).toEqual({ mic, status: 200 })
    }
    expect((await page('/venue/XJPX')).text).toContain('Asia/Tokyo keeps UTC+09:00 from 2026-01-01 to')
    expect((await page('/venue/XCOI')).text).toContain('trades around the clock: it has no holidays')
  })

  test('an unknown MIC: 400 UNKNOWN_MIC as a page for a browser, as the error object for anyone else', async () => {
    const html = await page('/venue/XXXX')
    expect(html.response.status).toBe(400)
    expect(html.text).toContain('<code>UNKNOWN_MIC</code>')
    expect(html.text).toContain('href="/venue/XNYS"')
    const json = await t.json('/venue/XXXX')
    expect(json.status).toBe(400)
    expect(json.body).toMatchObject({ error: 'UNKNOWN_MIC', supported: EXCHANGES.map((exchange) => exchange.mic) })
    expect((await page('/venue/%3Cscript%3E')).text).not.toContain('<script>')
  })
})

describe('the witness page', () => {
  test("a session's checkpoints with their receipts, from the witness store", async () => {
    const key = clientKey()
    for (let count = 1; count <= 2; count++) {
      const response = await t.json('/v1/witness/checkpoints', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(submission(key, { session_id: 'run-7', count, last_entry_hash: entryHash(count) })) })
      expect(response.status).toBe(201)
    }
    const api = (await t.json(`/v1/witness/checkpoints?kid=${key.kid}&session_id=run-7`)).body
    const { response, text } = await page(`/witness?kid=${key.kid}&session_id=run-7`, { ...HTML, 'cf-connecting-ip': '198.51.100.1' })
    expect(response.status).toBe(200)
    expect(text).toContain('2 checkpoints, ordered by count')
    for (const receipt of api.receipts) {
      expect(text).toContain(`<code class="hash">${receipt.last_entry_hash}</code>`)
      expect(text).toContain(receipt.signature)
    }
    expect(text).toContain(`value="${key.kid}"`)
  })

  test('refusals are pages with the status and reason of the API; what was typed is escaped, never markup', async () => {
    const bad = await page('/witness?kid=short&session_id=x', { ...HTML, 'cf-connecting-ip': '198.51.100.2' })
    expect(bad.response.status).toBe(400)
    expect(bad.text).toContain('kid is required: 43 characters')
    const sneaky = '<img src=x onerror=alert(1)>'
    const escaped = await page(`/witness?kid=${'A'.repeat(43)}&session_id=${encodeURIComponent(sneaky)}`, { ...HTML, 'cf-connecting-ip': '198.51.100.2' })
    expect(escaped.response.status).toBe(200)
    expect(escaped.text).not.toContain(sneaky)
    expect(escaped.text).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(escaped.text).toContain('holds no checkpoint')
    const typed = await page(`/witness?kid=${encodeURIComponent('"><script>x</script>')}&session_id=a`, { ...HTML, 'cf-connecting-ip': '198.51.100.2' })
    expect(typed.response.status).toBe(400)
    expect(typed.text).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"')
  })

  test('a lookup counts against the per-address limit of GET /v1/witness/checkpoints: over it, 429 with Retry-After', async () => {
    const headers = { ...HTML, 'cf-connecting-ip': '198.51.100.9' }
    const query = `kid=${'B'.repeat(43)}&session_id=limit`
    let status = 200
    let lookups = 0
    while (status === 200 && lookups < 1000) {
      status = (await t.request(lookups % 2 ? `/witness?${query}` : `/v1/witness/checkpoints?${query}`, { headers })).status
      lookups++
    }
    expect(status).toBe(429)
    expect(lookups).toBeGreaterThan(10)
    const limited = await page(`/witness?${query}`, headers)
    expect(limited.response.status).toBe(429)
    expect(Number(limited.response.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(limited.text).toContain('too many lookups')
    // The form alone is not a lookup.
    expect((await page('/witness', headers)).response.status).toBe(200)
  })
})

// GET / keeps answering JSON clients exactly as before; only a client that names text/html
// above JSON (a browser navigating) gets the board page. Caches are told the answer varies.
import { describe, expect, test } from 'bun:test'
import { prefersHtml } from '../../src/board/negotiate'
import { makeTestApp } from '../helpers/app'

const CHROME_NAVIGATION = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7'
const FIREFOX_NAVIGATION = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

describe('who gets the page', () => {
  test.each([
    [CHROME_NAVIGATION, true],
    [FIREFOX_NAVIGATION, true],
    ['text/html', true],
    ['application/xhtml+xml', true],
    ['TEXT/HTML; q=0.5', true],
    [null, false],
    ['', false],
    ['*/*', false],
    ['application/json', false],
    ['application/json, text/plain, */*', false],
    ['text/html;q=0, */*', false],
    ['text/html;q=0.5, application/json', false],
    ['text/html, application/json', false],
    ['application/json;q=0.4, text/html', true],
    ['text/*', false],
  ] as const)('Accept %p → page %p', (accept, page) => {
    expect(prefersHtml(accept)).toBe(page)
  })
})

describe('GET /', () => {
  const t = makeTestApp()
  const index = {
    service: 'openbell',
    description: 'Signed market-state receipts (Ed25519) and a checkpoint witness. UNKNOWN means treat the market as CLOSED.',
    issuer: t.config.issuer,
    links: {
      docs: `${t.config.publicBaseUrl}/docs`,
      openapi: `${t.config.publicBaseUrl}/openapi.json`,
      health: `${t.config.publicBaseUrl}/v5/health`,
      keys: `${t.config.publicBaseUrl}/v5/keys`,
      jwks: `${t.config.publicBaseUrl}/.well-known/jwks.json`,
      exchanges: `${t.config.publicBaseUrl}/v5/exchanges`,
      witness_spec: `${t.config.publicBaseUrl}/v1/witness/spec`,
    },
  }

  test.each([[null], ['*/*'], ['application/json'], ['application/json, text/html']])('Accept %p: the JSON index, unchanged', async (accept) => {
    const response = await t.request('/', accept === null ? {} : { headers: { accept } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    expect(response.headers.get('vary')).toContain('Accept')
    expect(await response.json()).toEqual(index)
  })

  test("a browser's navigation gets the board page, with the page headers and Vary: Accept", async () => {
    const response = await t.request('/', { headers: { accept: CHROME_NAVIGATION } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('vary')).toContain('Accept')
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    const page = await response.text()
    expect(page).toStartWith('<!doctype html>')
    expect(page).toContain('<h1>Market board</h1>')
  })
})

// Every page in a real browser at desktop and phone width, in light and dark: axe-core finds no
// violation (WCAG A/AA, contrast included), nothing overflows a phone's width, no console error,
// no request leaves the origin; the keyboard reaches the content; the witness page verifies its
// receipts. Screenshots of each page go to test-output/board/ (docs/board/ keeps copies).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { makeTestApp, type TestApp } from '../helpers/app'
import { axeViolations, chromiumAvailable, CHROMIUM, launchBrowser, recordedPage, screenshot, VIEWPORTS, type RunningBrowser } from './browser'
import { clientKey, entryHash, submission } from '../helpers/checkpoints'
import { SLOW_SETUP_MS } from '../helpers/process'

let harness: TestApp
let server: ReturnType<TestApp['app']['listen']>
let base: string
let running: RunningBrowser
let witnessPath: string

beforeAll(async () => {
  if (!chromiumAvailable) throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install -y chromium (bun run test does when it can)`)
  // A fixed instant, so the screenshots show the same day every run: Thanksgiving Day 2026, 09:45
  // in New York (XNYS and XNAS closed for the holiday), Europe in its afternoon session.
  harness = makeTestApp({ now: '2026-11-26T14:45:00.000Z' })
  const key = clientKey()
  for (let count = 1; count <= 3; count++) {
    const response = await harness.json('/v1/witness/checkpoints', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(submission(key, { session_id: 'agent-run-42', count, last_entry_hash: entryHash(count), ts: `2026-11-26T14:0${count}:00.000Z` })) })
    expect(response.status).toBe(201)
  }
  witnessPath = `/witness?kid=${key.kid}&session_id=agent-run-42`
  server = harness.app.listen({ port: 0, hostname: '127.0.0.1' })
  base = `http://127.0.0.1:${server.server!.port}`
  running = await launchBrowser()
}, SLOW_SETUP_MS)

afterAll(async () => {
  await running?.close()
  await server?.stop(true)
})

interface PageCase {
  name: string
  path: () => string
  ready: string
  /** Something to do on the page before it is checked and photographed. */
  prepare?: (page: Page) => Promise<void>
}

const PAGES: PageCase[] = [
  { name: 'board', path: () => '/', ready: 'body[data-updates]' },
  { name: 'venue-XNYS', path: () => '/venue/XNYS', ready: 'body[data-updates]' },
  {
    name: 'verify',
    path: () => '/verify',
    ready: '#verify-button:not([disabled])',
    // With a verdict on the page, so its colours are checked and shown too.
    prepare: async (page) => {
      await page.fill('#receipt-input', JSON.stringify((await harness.json('/v5/demo?mic=XLON')).body, null, 2))
      await page.click('#verify-button')
      await page.waitForSelector('#verify-output [data-valid]')
    },
  },
  { name: 'witness', path: () => witnessPath, ready: 'td[data-valid]' },
  { name: 'venue-unknown', path: () => '/venue/XXXX', ready: 'main' },
]

// axe-core runs at desktop width in both schemes and at phone width in light (its contrast
// checks read the same colours at either width); every variant is screenshot and checked for
// overflow, console errors and requests off the origin.
const VARIANTS = [
  { viewport: 'desktop', colorScheme: 'light', axe: true },
  { viewport: 'desktop', colorScheme: 'dark', axe: true },
  { viewport: 'phone', colorScheme: 'light', axe: true },
  { viewport: 'phone', colorScheme: 'dark', axe: false },
] as const

describe('every page at desktop and phone width, light and dark', () => {
  for (const page of PAGES) {
    // The error page shares every other page's layout: light at both widths is enough.
    for (const variant of page.name === 'venue-unknown' ? VARIANTS.filter((v) => v.colorScheme === 'light') : VARIANTS) {
      const what = `${page.name}, ${variant.viewport}, ${variant.colorScheme}`
      test(`${what}:${variant.axe ? ' axe-core passes,' : ''} nothing overflows, no console error, no request off the origin`, async () => {
        const phone = variant.viewport === 'phone'
        const recorded = await recordedPage(running.browser, base, { viewport: VIEWPORTS[variant.viewport], colorScheme: variant.colorScheme, isMobile: phone, hasTouch: phone })
        try {
          const response = await recorded.page.goto(base + page.path())
          expect(response?.status()).toBe(page.name === 'venue-unknown' ? 400 : 200)
          await recorded.page.waitForSelector(page.ready, { state: 'attached', timeout: 15_000 })
          await page.prepare?.(recorded.page)
          if (variant.axe) expect({ page: what, violations: await axeViolations(recorded.page) }).toEqual({ page: what, violations: [] })
          const overflow = await recorded.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
          expect({ page: what, overflow }).toEqual({ page: what, overflow: 0 })
          // The whole page at desktop width; a phone's first screen.
          await screenshot(recorded.page, `${page.name}-${variant.viewport}-${variant.colorScheme}`, !phone)
          // The board's first screen at desktop width is the README's picture.
          if (page.name === 'board' && !phone) await screenshot(recorded.page, `board-${variant.viewport}-${variant.colorScheme}-first-screen`, false)
          // The unknown venue's page answers 400, which Chromium reports on the console; nothing else may.
          const expected = page.name === 'venue-unknown' ? ['console: Failed to load resource: the server responded with a status of 400 (Bad Request)'] : []
          expect(recorded.errors).toEqual(expected)
          expect(recorded.requests.filter((url) => !url.startsWith(`${base}/`))).toEqual([])
        } finally {
          await recorded.context.close()
        }
      }, 60_000)
    }
  }
})

describe('keyboard and the witness page', () => {
  test('the first Tab reaches "Skip to content", which moves focus to the main content; links and the filter are reachable', async () => {
    const { page, context, errors } = await recordedPage(running.browser, base)
    try {
      await page.goto(`${base}/`)
      await page.waitForSelector('#filter-box:not([hidden])')
      await page.keyboard.press('Tab')
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content')
      await page.keyboard.press('Enter')
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('main')
      // The state counts (filters since issue 30) come first, in the order they read, then the filter box.
      const order: string[] = []
      for (let i = 0; i < 5; i++) {
        await page.keyboard.press('Tab')
        order.push(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.filterState ?? document.activeElement!.id))
      }
      expect(order).toEqual(['OPEN', 'CLOSED', 'HALTED', 'UNKNOWN', 'filter'])
      // A focused element shows a visible outline.
      expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid')
      expect(errors).toEqual([])
    } finally {
      await context.close()
    }
  })

  test('the witness page lists the session with each receipt verified in the browser; a wrong signature is marked invalid', async () => {
    const { page, context, errors, requests } = await recordedPage(running.browser, base)
    try {
      await page.goto(base + witnessPath)
      await page.waitForSelector('td[data-valid]')
      const verdicts = await page.$$eval('td[data-verdict]', (cells) => cells.map((cell) => `${(cell as HTMLElement).dataset.valid} ${cell.textContent}`))
      expect(verdicts).toEqual(['true valid (key_2026_v1)', 'true valid (key_2026_v1)', 'true valid (key_2026_v1)'])
      expect(await page.$$eval('#witness-table tbody tr td:first-child', (cells) => cells.map((cell) => cell.textContent))).toEqual(['1', '2', '3'])
      // The same page with one receipt altered on its way (as a proxy could): that row turns invalid.
      await page.route(`${base}/witness?*`, async (route) => {
        const original = await route.fetch()
        const body = (await original.text()).replace('&quot;count&quot;: &quot;2&quot;', '&quot;count&quot;: &quot;7&quot;')
        await route.fulfill({ response: original, body })
      })
      await page.goto(base + witnessPath)
      await page.waitForFunction(() => document.querySelectorAll('td[data-valid]').length === 3)
      expect(await page.$$eval('td[data-verdict]', (cells) => cells.map((cell) => (cell as HTMLElement).dataset.valid))).toEqual(['true', 'false', 'true'])
      expect(errors).toEqual([])
      expect(requests.filter((url) => !url.startsWith(`${base}/`))).toEqual([])
    } finally {
      await context.close()
    }
  })
})

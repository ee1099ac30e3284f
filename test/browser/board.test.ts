// The board in a real browser (Chromium, headless): each tile's state is the one /v5/historical
// gives for the instant the page shows, with and without JavaScript; an override set through
// the admin route turns a tile HALTED within seconds without a reload; the filter box; no
// console error and no request to another origin.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page, Route } from 'playwright-core'
import { EXCHANGES } from '../../src/calendar/exchanges'
import { makeTestApp, TEST_ADMIN_KEY, type TestApp } from '../helpers/app'
import { chromiumAvailable, CHROMIUM, launchBrowser, recordedPage, type RecordedPage, type RunningBrowser } from './browser'
import { SLOW_SETUP_MS } from '../helpers/process'

let harness: TestApp
let server: ReturnType<TestApp['app']['listen']>
let base: string
let running: RunningBrowser
const opened: RecordedPage[] = []

beforeAll(async () => {
  if (!chromiumAvailable) throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install -y chromium (bun run test does when it can)`)
  harness = makeTestApp()
  // The service's clock is the real one: the page's countdowns and polling run in real time.
  harness.clock.now = () => Date.now()
  server = harness.app.listen({ port: 0, hostname: '127.0.0.1' })
  base = `http://127.0.0.1:${server.server!.port}`
  running = await launchBrowser()
}, SLOW_SETUP_MS)

afterAll(async () => {
  for (const recorded of opened) await recorded.context.close().catch(() => {})
  await running?.close()
  await server?.stop(true)
})

async function open(path: string, options: { javaScriptEnabled?: boolean } = {}): Promise<RecordedPage> {
  const recorded = await recordedPage(running.browser, base, options)
  opened.push(recorded)
  await recorded.page.goto(base + path)
  return recorded
}

/** The tiles' states and the instant the page says they are for, read in one step. */
const snapshot = (page: Page) =>
  page.evaluate(() => ({
    at: document.body.dataset.at!,
    tiles: [...document.querySelectorAll<HTMLElement>('li.tile[data-mic]')].map((tile) => ({ mic: tile.dataset.mic!, status: tile.dataset.status!, badge: tile.querySelector('[data-field="status"]')!.textContent })),
  }))

async function expectHistoricalStates(shown: Awaited<ReturnType<typeof snapshot>>): Promise<void> {
  expect(shown.tiles.map((tile) => tile.mic).sort()).toEqual(EXCHANGES.map((exchange) => exchange.mic).sort())
  const historical = await Promise.all(shown.tiles.map(async (tile) => (await (await fetch(`${base}/v5/historical?mic=${tile.mic}&at=${shown.at}`)).json()) as { computed_status: string }))
  const states = shown.tiles.map((tile, index) => ({ mic: tile.mic, tile: tile.status, badge: tile.badge, historical: historical[index]!.computed_status }))
  expect(states).toEqual(states.map((state) => ({ ...state, tile: state.historical, badge: state.historical })))
}

describe('the board in a browser', () => {
  test('without JavaScript: the server-rendered tiles show the state /v5/historical gives for the instant on the page', async () => {
    const { page, errors, requests } = await open('/', { javaScriptEnabled: false })
    expect(await page.title()).toBe('Market board · openbell')
    await expectHistoricalStates(await snapshot(page))
    // The filter box needs the script: it stays hidden rather than offering something that does nothing.
    expect(await page.isHidden('#filter-box')).toBe(true)
    expect(errors).toEqual([])
    expect(requests.filter((url) => !url.startsWith(`${base}/`))).toEqual([])
  })

  test('with JavaScript: after live updates the tiles still show the state /v5/historical gives for the instant on the page', async () => {
    const { page, errors, requests } = await open('/')
    await page.waitForFunction(() => Number(document.body.dataset.updates ?? 0) >= 2, null, { timeout: 15_000 })
    await expectHistoricalStates(await snapshot(page))
    // The countdown is filled in for every venue with a next transition ("now" once its instant passed before a poll).
    const empty = await page.$$eval('li.tile', (tiles) => tiles.filter((tile) => tile.querySelector('[data-field="countdown"]')!.getAttribute('data-at') && !/^(in \S|now$)/.test(tile.querySelector('[data-field="countdown"]')!.textContent!)).map((tile) => (tile as HTMLElement).dataset.mic))
    expect(empty).toEqual([])
    expect(errors).toEqual([])
    expect(requests.filter((url) => !url.startsWith(`${base}/`))).toEqual([])
    expect(requests.some((url) => url === `${base}/v5/board`)).toBe(true)
  })

  test('an override set through the admin route turns the tile HALTED within a few seconds, without a reload, and back when cleared', async () => {
    const { page, errors, requests } = await open('/')
    await page.waitForFunction(() => Number(document.body.dataset.updates ?? 0) >= 1, null, { timeout: 15_000 })
    await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true))
    const before = await page.getAttribute('li.tile[data-mic="XLON"]', 'data-status')
    expect(before).not.toBe('HALTED')
    const reason = 'board test: exchange-wide halt'
    const set = await fetch(`${base}/v5/admin/overrides`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-oracle-key': TEST_ADMIN_KEY },
      body: JSON.stringify({ mic: 'XLON', status: 'HALTED', reason, expires_at: new Date(Date.now() + 600_000).toISOString() }),
    })
    expect(set.status).toBe(201)
    const setAt = Date.now()
    await page.waitForSelector('li.tile[data-mic="XLON"][data-status="HALTED"]', { timeout: 8000 })
    const seenAfterMs = Date.now() - setAt
    expect(seenAfterMs).toBeLessThan(8000)
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true)
    expect(await page.textContent('li.tile[data-mic="XLON"] [data-field="status"]')).toBe('HALTED')
    expect(await page.textContent('li.tile[data-mic="XLON"] [data-field="reason"]')).toBe(`Operator override: ${reason}`)
    expect(await page.textContent('li.tile[data-mic="XLON"] [data-field="next"]')).toStartWith('Override ends ')
    expect(await page.getAttribute('li.tile[data-mic="XLON"]', 'class')).toContain('state-halted')
    // The change is announced to screen readers.
    await page.waitForFunction(() => document.getElementById('announcer')!.textContent!.includes('XLON is now HALTED'), null, { timeout: 3000 })

    expect((await fetch(`${base}/v5/admin/overrides/XLON`, { method: 'DELETE', headers: { 'x-oracle-key': TEST_ADMIN_KEY } })).status).toBe(204)
    await page.waitForSelector(`li.tile[data-mic="XLON"][data-status="${before}"]`, { timeout: 8000 })
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true)
    expect(errors).toEqual([])
    expect(requests.filter((url) => !url.startsWith(`${base}/`))).toEqual([])
  })

  // Both pages at once (each waits out ten seconds of silence; one after the other doubled the time).
  test('/ and /venue/XNYS: when /v5/board never answers, the page says live updates stopped; once it answers again the tiles are live again', async () => {
    await Promise.all(['/', '/venue/XNYS'].map(async (path) => {
      const recorded = await recordedPage(running.browser, base)
      opened.push(recorded)
      const { page } = recorded
      // Every poll hangs (a connection that went quiet) until `hanging` is lifted; those already
      // held stay held, as on a connection that is really gone.
      const held: Route[] = []
      let hanging = true
      await page.route('**/v5/board', (route) => (hanging ? void held.push(route) : route.fallback()))
      await page.goto(base + path)
      const renderedAt = (await page.getAttribute('body', 'data-at'))!
      // Not "live" before anything arrived, and "stopped" (at the instant the server rendered) after ten seconds of nothing.
      await page.waitForSelector('#board-live.stale', { timeout: 16_000 })
      expect(await page.textContent('#board-live')).toContain(`Live updates stopped at ${renderedAt.slice(11, 19)} UTC`)
      // A status region: screen readers hear that updates stopped, not only sighted readers.
      expect(await page.getAttribute('#board-live', 'role')).toBe('status')
      expect(held.length).toBeGreaterThanOrEqual(1)
      hanging = false
      // The poll in flight gives up on its own, so the next one reaches the service.
      await page.waitForFunction(() => Number(document.body.dataset.updates ?? 0) >= 1, null, { timeout: 15_000 })
      await page.waitForSelector('#board-live:not(.stale)', { timeout: 3000 })
      expect(await page.textContent('#board-live')).toBe(' · live')
      expect(await page.textContent('[data-field="at"]')).not.toBe(`${renderedAt.slice(11, 19)} UTC`)
      for (const route of held) await route.abort().catch(() => {})
      expect(recorded.requests.filter((url) => !url.startsWith(`${base}/`))).toEqual([])
    }))
  }, 45_000)

  test('the filter box narrows the tiles by region, state or name, and hides empty regions', async () => {
    const { page, errors } = await open('/')
    await page.waitForSelector('#filter-box:not([hidden])')
    await page.focus('#filter')
    await page.keyboard.type('europe')
    const visible = () => page.$$eval('li.tile[data-mic]', (tiles) => tiles.filter((tile) => !(tile as HTMLElement).hidden).map((tile) => (tile as HTMLElement).dataset.mic!).sort())
    expect(await visible()).toEqual(EXCHANGES.filter((exchange) => exchange.region === 'Europe').map((exchange) => exchange.mic).sort())
    expect(await page.isHidden('section.region[aria-labelledby="region-americas"]')).toBe(true)
    expect(await page.textContent('#filter-count')).toBe(`${EXCHANGES.filter((exchange) => exchange.region === 'Europe').length} of ${EXCHANGES.length} venues shown`)
    await page.fill('#filter', 'xnys')
    expect(await visible()).toEqual(['XNYS'])
    // Escape clears it.
    await page.keyboard.press('Escape')
    expect((await visible()).length).toBe(EXCHANGES.length)
    expect(errors).toEqual([])
  })

  test('what trades comes first in each region (rendered so, and kept so live); the count badges filter by state; "open" is the state, not Copenhagen; region counts stay true', async () => {
    // Overrides make the order and the filters certain whatever the hour: the last European
    // venue of the list OPEN, an earlier one and Copenhagen CLOSED.
    const europe = EXCHANGES.filter((exchange) => exchange.region === 'Europe').map((exchange) => exchange.mic).filter((mic) => mic !== 'XLON' && mic !== 'XCSE')
    const [closedEarly, openedLate] = [europe[0]!, europe.at(-1)!]
    const override = async (mic: string, status: string) => {
      const response = await fetch(`${base}/v5/admin/overrides`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-oracle-key': TEST_ADMIN_KEY }, body: JSON.stringify({ mic, status, reason: 'board order test', expires_at: new Date(Date.now() + 600_000).toISOString() }) })
      expect(response.status).toBe(201)
    }
    const { page, errors } = await open('/')
    await page.waitForFunction(() => Number(document.body.dataset.updates ?? 0) >= 1, null, { timeout: 15_000 })
    try {
      for (const [mic, status] of [[closedEarly, 'CLOSED'], ['XCSE', 'CLOSED'], [openedLate, 'OPEN']] as const) await override(mic, status)
      await page.waitForSelector(`li.tile[data-mic="${openedLate}"][data-status="OPEN"]`, { timeout: 8000 })
      await page.waitForSelector(`li.tile[data-mic="${closedEarly}"][data-status="CLOSED"]`, { timeout: 8000 })
      const rank: Record<string, number> = { OPEN: 0, HALTED: 1, UNKNOWN: 2, CLOSED: 3 }
      const inBoardOrder = async (target: Page) => {
        const regions = await target.$$eval('section.region', (sections) => sections.map((section) => [...section.querySelectorAll<HTMLElement>('li.tile')].map((tile) => ({ mic: tile.dataset.mic!, status: tile.dataset.status!, order: Number(tile.dataset.order) }))))
        for (const tiles of regions) {
          const sorted = tiles.toSorted((a, b) => rank[a.status]! - rank[b.status]! || a.order - b.order)
          expect(tiles.map((tile) => `${tile.mic} ${tile.status}`)).toEqual(sorted.map((tile) => `${tile.mic} ${tile.status}`))
        }
        const mics = regions.flat().map((tile) => tile.mic)
        expect(mics.indexOf(openedLate)).toBeLessThan(mics.indexOf(closedEarly))
      }
      // Live: the tile moved up without a reload; and the server renders the same order.
      await inBoardOrder(page)
      const rendered = await open('/', { javaScriptEnabled: false })
      await inBoardOrder(rendered.page)

      const visible = () => page.$$eval('li.tile[data-mic]', (tiles) => tiles.filter((tile) => !(tile as HTMLElement).hidden).map((tile) => (tile as HTMLElement).dataset.mic!).sort())
      const withStatus = (status: string) => page.$$eval('li.tile[data-mic]', (tiles, wanted) => tiles.filter((tile) => (tile as HTMLElement).dataset.status === wanted).map((tile) => (tile as HTMLElement).dataset.mic!).sort(), status)
      const regionCounts = () => page.$$eval('section.region', (sections) => sections.map((section) => ({ hidden: (section as HTMLElement).hidden, shown: section.querySelectorAll('li.tile:not([hidden])').length, total: section.querySelectorAll('li.tile').length, says: section.querySelector('.region-count')!.textContent })))
      const expectTrueCounts = async (filtering: boolean) => {
        for (const region of await regionCounts()) expect(region).toEqual({ ...region, hidden: region.shown === 0, says: filtering ? `(${region.shown} of ${region.total} shown)` : `(${region.total})` })
      }

      // The OPEN count is a button: pressed, only OPEN tiles; pressed again, all.
      const openButton = page.locator('button[data-filter-state="OPEN"]')
      expect(await openButton.getAttribute('aria-pressed')).toBe('false')
      await openButton.click()
      expect(await openButton.getAttribute('aria-pressed')).toBe('true')
      const openMics = await withStatus('OPEN')
      expect(openMics).toContain(openedLate)
      expect(await visible()).toEqual(openMics)
      expect(await page.textContent('#filter-count')).toBe(`${openMics.length} of ${EXCHANGES.length} venues shown (OPEN only)`)
      await expectTrueCounts(true)
      await openButton.click()
      expect(await openButton.getAttribute('aria-pressed')).toBe('false')
      expect((await visible()).length).toBe(EXCHANGES.length)
      await expectTrueCounts(false)

      // Typed, a state word is the state exactly: Copenhagen (CLOSED) is not "open", but its name still finds it.
      await page.fill('#filter', 'open')
      expect(await visible()).toEqual(await withStatus('OPEN'))
      expect(await visible()).not.toContain('XCSE')
      await expectTrueCounts(true)
      await page.fill('#filter', 'copenhagen')
      expect(await visible()).toEqual(['XCSE'])
      await page.fill('#filter', 'europe closed')
      expect(await visible()).toEqual((await withStatus('CLOSED')).filter((mic) => EXCHANGES.find((exchange) => exchange.mic === mic)!.region === 'Europe'))
      await expectTrueCounts(true)
      // Escape clears the words and the pressed count alike.
      await page.click('button[data-filter-state="CLOSED"]')
      await page.focus('#filter')
      await page.keyboard.press('Escape')
      expect((await visible()).length).toBe(EXCHANGES.length)
      expect(await page.getAttribute('button[data-filter-state="CLOSED"]', 'aria-pressed')).toBe('false')
      await expectTrueCounts(false)
      expect(errors).toEqual([])
    } finally {
      for (const mic of [closedEarly, 'XCSE', openedLate]) await fetch(`${base}/v5/admin/overrides/${mic}`, { method: 'DELETE', headers: { 'x-oracle-key': TEST_ADMIN_KEY } })
    }
  }, 90_000)
})

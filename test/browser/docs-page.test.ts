// /docs (Swagger UI, served by this process) under its Content-Security-Policy, in Chromium: the
// page renders the operations of /openapi.json, "Try it out" reaches the service, and the
// browser reports no CSP violation (nor any other console error); the page refuses to be framed.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeTestApp, type TestApp } from '../helpers/app'
import { chromiumAvailable, CHROMIUM, launchBrowser, recordedPage, type RunningBrowser } from './browser'
import { freePort, SLOW_SETUP_MS } from '../helpers/process'

let harness: TestApp
let server: ReturnType<TestApp['app']['listen']>
let base: string
let running: RunningBrowser

beforeAll(async () => {
  if (!chromiumAvailable) throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install -y chromium (.ci/run does)`)
  // The document's server is PUBLIC_BASE_URL: the page's own origin, as in production.
  const port = freePort()
  base = `http://127.0.0.1:${port}`
  harness = makeTestApp({ now: '2026-11-26T14:45:00.000Z', env: { PUBLIC_BASE_URL: base } })
  server = harness.app.listen({ port, hostname: '127.0.0.1' })
  running = await launchBrowser()
}, SLOW_SETUP_MS)

afterAll(async () => {
  await running?.close()
  await server?.stop(true)
})

describe('/docs under its Content-Security-Policy', () => {
  test('the page carries the policy: nothing from elsewhere, never framed', async () => {
    const response = await fetch(`${base}/docs`)
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain("'unsafe-eval'")
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/)
    expect(response.headers.get('x-frame-options')).toBe('DENY')
  })

  test('Chromium renders every operation, "Try it out" answers, and no policy violation is reported', async () => {
    const { context, page, errors, requests } = await recordedPage(running.browser, base)
    try {
      const violations: string[] = []
      // Reported by the page itself, whatever the console says.
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          ;(globalThis as unknown as { violations: string[] }).violations ??= []
          ;(globalThis as unknown as { violations: string[] }).violations.push(`${event.violatedDirective} ${event.blockedURI}`)
        })
      })
      const response = await page.goto(`${base}/docs`)
      expect(response?.status()).toBe(200)
      await page.waitForSelector('.opblock', { timeout: 20_000 })
      const openapi = (await harness.json('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> }
      const operations = Object.values(openapi.paths).reduce((sum, methods) => sum + Object.keys(methods).filter((method) => method !== 'parameters').length, 0)
      expect(await page.locator('.opblock').count()).toBe(operations)
      // One operation opened and tried: the request goes to this origin and its answer is shown.
      const demo = page.locator('.opblock-get', { has: page.locator('[data-path="/v5/demo"]') }).first()
      await demo.locator('.opblock-summary').click()
      await demo.locator('button.try-out__btn').click()
      await demo.locator('button.execute').click()
      await demo.locator('.live-responses-table tr.response .response-col_status').first().waitFor({ timeout: 10_000 })
      expect((await demo.locator('.live-responses-table tr.response .response-col_status').first().innerText()).trim()).toStartWith('200')
      violations.push(...((await page.evaluate(() => (globalThis as unknown as { violations?: string[] }).violations ?? [])) as string[]))
      expect(violations).toEqual([])
      expect(errors).toEqual([])
      expect(requests.filter((url) => new URL(url).origin !== base)).toEqual([])
      expect(requests).toContain(`${base}/v5/demo`)
    } finally {
      await context.close()
    }
  }, 60_000)
})

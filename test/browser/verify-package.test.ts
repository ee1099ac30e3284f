// The verifier package in Chromium: its cases (published vectors and a running service's), bundled
// for browsers and run in a page that may reach nothing but the page's own origin — the checks
// are offline — with Debian's Chromium through playwright-core.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { cases } from '../../packages/verify/test/cases'
import { publishedVectors } from '../helpers/verify-package-vectors'
import { serviceVectors } from '../helpers/signed-vectors'
import { chromiumAvailable, launchBrowser, recordedPage, type RunningBrowser } from './browser'

const ENTRY = join(import.meta.dir, '../../packages/verify/test/browser-entry.ts')

describe.skipIf(!chromiumAvailable)('@openbell/verify in Chromium', () => {
  let running: RunningBrowser
  let server: ReturnType<typeof Bun.serve>
  beforeAll(async () => {
    const bundle = await Bun.build({ entrypoints: [ENTRY], target: 'browser', format: 'esm', minify: true })
    if (!bundle.success) throw new Error(bundle.logs.join('\n'))
    const script = await bundle.outputs[0]!.text()
    server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: (request) =>
        new URL(request.url).pathname === '/cases.js'
          ? new Response(script, { headers: { 'content-type': 'text/javascript' } })
          : new Response('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>cases</title><link rel="icon" href="data:,"><script type="module" src="/cases.js"></script></head><body></body></html>', { headers: { 'content-type': 'text/html; charset=utf-8' } }),
    })
    running = await launchBrowser()
  }, 60_000)
  afterAll(async () => {
    await running?.close()
    server?.stop(true)
  })

  test('every case passes in the page, and the page asks nothing of any other origin', async () => {
    const vectors = { ...publishedVectors(), service: await serviceVectors() }
    const origin = `http://127.0.0.1:${server.port}`
    const { page, requests, errors, context } = await recordedPage(running.browser, origin)
    try {
      await page.goto(`${origin}/`)
      await page.waitForFunction(() => typeof (globalThis as { runVerifyCases?: unknown }).runVerifyCases === 'function')
      const results = await page.evaluate((input) => (globalThis as unknown as { runVerifyCases: (v: unknown) => { name: string; ok: boolean; error?: string }[] }).runVerifyCases(input), vectors)
      expect(results.filter((result) => !result.ok)).toEqual([])
      expect(results.map((result) => result.name)).toEqual(cases(vectors).map((c) => c.name))
      expect(errors).toEqual([])
      expect(requests.every((url) => url.startsWith(origin))).toBe(true)
    } finally {
      await context.close()
    }
  }, 120_000)
})

// A real browser for page tests: Debian's Chromium (apt-get install -y chromium; bun run test installs
// it when missing) driven headless by playwright-core, one browser per test file. Every request
// a page makes is intercepted and recorded; anything that would leave the service's origin is
// aborted and kept in the record, so a test can assert there was none. Console errors and
// uncaught page errors are collected. The browser's process group is killed at close and, should
// a test crash first, when the test process exits.
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const chromiumAvailable = existsSync(CHROMIUM)

/** Where the browser tests write screenshots (git-ignored; docs/board/ keeps copies). */
export const SCREENSHOT_DIR = resolve(import.meta.dir, '../../test-output/board')

export const VIEWPORTS = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
} as const

const AXE_SOURCE = readFileSync(resolve(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8')

export interface RunningBrowser {
  browser: Browser
  close: () => Promise<void>
}

const groups = new Set<number>()
let exitHookInstalled = false
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // already gone
  }
  groups.delete(pid)
}

export async function launchBrowser(): Promise<RunningBrowser> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'], headless: true })
  const pid = server.process().pid
  if (pid) groups.add(pid)
  if (!exitHookInstalled) {
    exitHookInstalled = true
    process.on('exit', () => [...groups].forEach(killGroup))
  }
  const browser = await chromium.connect(server.wsEndpoint())
  return {
    browser,
    close: async () => {
      try {
        await browser.close()
        await server.close()
      } finally {
        if (pid) killGroup(pid)
      }
    },
  }
}

export interface RecordedPage {
  context: BrowserContext
  page: Page
  /** Every URL the page asked for, in order (aborted ones too). */
  requests: string[]
  /** Console errors and uncaught exceptions. */
  errors: string[]
}

/** A fresh context whose every request is recorded, and aborted unless it goes to `origin`. */
export async function recordedPage(browser: Browser, origin: string, options: BrowserContextOptions = {}): Promise<RecordedPage> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, ...options })
  const requests: string[] = []
  const errors: string[] = []
  await context.route('**/*', (route) => {
    const url = route.request().url()
    requests.push(url)
    return new URL(url).origin === origin ? route.continue() : route.abort('blockedbyclient')
  })
  const page = await context.newPage()
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`))
  return { context, page, requests, errors }
}

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[] }[]
}

/** axe-core's full default rule set on the page as it stands (injected over the DevTools protocol, which the page's CSP does not govern). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE)
  const result = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe
    return axe.run(document, { resultTypes: ['violations'] })
  })
  return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, nodes: violation.nodes.map((node) => ({ target: node.target })) }))
}

export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const path = join(SCREENSHOT_DIR, `${name}.png`)
  await page.screenshot({ path, fullPage })
  return path
}

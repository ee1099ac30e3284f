// The real service as an operator starts it: one instance per port, clear start-up errors,
// --help, and the start-up log lines that say where links and client addresses come from.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { tempDir } from '../helpers/app'
import { SLOW_SETUP_MS, startService, type RunningService } from '../helpers/process'

const MAIN = resolve(import.meta.dir, '../../src/main.ts')

async function run(args: string[], env: Record<string, string>) {
  const child = Bun.spawn(['bun', MAIN, ...args], { env: { ...process.env, HALT_FEED_URL: 'off', LOG_LEVEL: 'info', ...env }, stdout: 'pipe', stderr: 'pipe' })
  const timer = setTimeout(() => child.kill(), 15_000)
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  clearTimeout(timer)
  return { stdout, stderr, code }
}

describe('starting the service', () => {
  let first: RunningService
  let dataDir: string
  beforeAll(async () => {
    dataDir = tempDir()
    first = await startService({ DATA_DIR: dataDir, LOG_LEVEL: 'info' })
  }, SLOW_SETUP_MS)
  afterAll(() => first.process.kill())

  test('a second instance on the same port exits non-zero saying the port is in use', async () => {
    const port = new URL(first.base).port
    const secondData = tempDir()
    const second = await run([], { DATA_DIR: secondData, PORT: port, HOST: '127.0.0.1' })
    expect(second.code).toBe(2)
    // It stopped before touching its data directory: no database, no new key.
    expect(readdirSync(secondData)).toEqual([])
    expect(second.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`)
    expect(second.stdout).not.toContain('"msg":"listening"')
    // The first instance still answers alone.
    expect((await fetch(`${first.base}/v5/health`)).status).toBe(200)
  })

  test('the start-up log names the base URL in use and the client address source', () => {
    const lines = first.output().split('\n').filter(Boolean).map((line) => { try { return JSON.parse(line) } catch { return {} } })
    const listening = lines.find((line) => line.msg === 'listening')
    expect(listening.base_url).toBe(`http://127.0.0.1:${new URL(first.base).port}`)
    expect(lines.find((line) => line.msg === 'client address source')).toMatchObject({ source: 'tcp_peer' })
  })

  test('links use the port the service listens on when ISSUER is localhost', async () => {
    const keys = (await (await fetch(`${first.base}/.well-known/oracle-keys.json`)).text())
    expect(keys).toContain(`http://127.0.0.1:${new URL(first.base).port}/`)
    expect(keys).not.toContain('http://localhost/')
  })

  test('GET / is an index pointing at docs, health and keys', async () => {
    const response = await fetch(`${first.base}/`)
    expect(response.status).toBe(200)
    const body = (await response.json()) as { links: Record<string, string> }
    expect(body.links.docs).toBe(`${first.base}/docs`)
    expect(body.links.health).toBe(`${first.base}/v5/health`)
    expect(body.links.keys).toBe(`${first.base}/v5/keys`)
  })

  test('/docs works offline: the page and every script it loads come from this server', async () => {
    const page = await (await fetch(`${first.base}/docs`)).text()
    const sources = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!)
    expect(sources.length).toBeGreaterThanOrEqual(3)
    for (const source of sources) {
      expect(source.startsWith('/')).toBe(true)
      const asset = await fetch(`${first.base}${source}`)
      expect(asset.status).toBe(200)
      expect((await asset.text()).length).toBeGreaterThan(10)
    }
    expect(page).not.toMatch(/https?:\/\/(cdn|unpkg)/)
  })

  test('every answer, including static pages and errors, says nosniff', async () => {
    for (const path of ['/docs', '/openapi.json', '/v5/health', '/nothing', '/v5/demo?mic=MOON']) {
      expect((await fetch(`${first.base}${path}`)).headers.get('x-content-type-options')).toBe('nosniff')
    }
  })
})

describe('start-up errors and help', () => {
  test('a HOST that is not an address or a resolvable name is a configuration error, not a stack trace', async () => {
    const result = await run([], { DATA_DIR: tempDir(), PORT: '18999', HOST: 'not_a_host' })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('configuration error: HOST:')
    expect(result.stderr).not.toContain(' at ')
    const unresolvable = await run([], { DATA_DIR: tempDir(), PORT: '18999', HOST: 'no-such-host.invalid' })
    expect(unresolvable.code).toBe(2)
    expect(unresolvable.stderr).toContain('configuration error: HOST: "no-such-host.invalid" is neither an IP address nor a name that resolves')
  })

  test('--help prints the usage and exits 0; an unknown command exits 2', async () => {
    const help = await run(['--help'], {})
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('usage: openbell')
    const unknown = await run(['frobnicate'], {})
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('usage: openbell')
  })

  test('a bad LOG_LEVEL lists the allowed values', async () => {
    const result = await run([], { LOG_LEVEL: 'loud' })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('LOG_LEVEL: must be one of debug, info, warn, error (got "loud")')
  })
})

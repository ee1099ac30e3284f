// `openbell healthcheck` against a real listener: 0 for a 200 from /v5/health, else 1 with the
// URL it asked and what came back on stderr (it used to exit 1 without a word).
import { afterAll, describe, expect, test } from 'bun:test'
import { healthcheckUrl, parseHealthcheckArgs, runHealthcheck } from '../../src/cli/healthcheck'
import { freePort } from '../helpers/process'

let status = 200
let readyStatus = 503
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: (request) => {
    const path = new URL(request.url).pathname
    return new Response('{}', { status: path === '/v5/health' ? status : path === '/v5/ready' ? readyStatus : 404 })
  },
})
afterAll(() => server.stop(true))

describe('openbell healthcheck', () => {
  test('asks HOST itself, or loopback when HOST is a wildcard', () => {
    expect(healthcheckUrl('0.0.0.0', 8080)).toBe('http://127.0.0.1:8080/v5/health')
    expect(healthcheckUrl('::', 8080)).toBe('http://127.0.0.1:8080/v5/health')
    expect(healthcheckUrl('::1', 9000)).toBe('http://[::1]:9000/v5/health')
    expect(healthcheckUrl('127.0.0.1', 9000)).toBe('http://127.0.0.1:9000/v5/health')
  })

  test('0 for a 200; 1 naming the URL and the status, or the URL and the error', async () => {
    const lines: string[] = []
    const err = (line: string) => lines.push(line)
    status = 200
    expect(await runHealthcheck('0.0.0.0', server.port!, err)).toBe(0)
    expect(await runHealthcheck('127.0.0.1', server.port!, err)).toBe(0)
    expect(lines).toEqual([])
    status = 500
    expect(await runHealthcheck('0.0.0.0', server.port!, err)).toBe(1)
    expect(lines.pop()).toBe(`healthcheck: http://127.0.0.1:${server.port}/v5/health answered 500`)
    const closed = freePort()
    expect(await runHealthcheck('0.0.0.0', closed, err)).toBe(1)
    expect(lines.pop()).toStartWith(`healthcheck: http://127.0.0.1:${closed}/v5/health: `)
  })

  test('--ready asks /v5/ready; --wait asks again until it answers 200 or the time is up', async () => {
    expect(parseHealthcheckArgs(['--ready', '--wait', '60'])).toEqual({ ready: true, waitSeconds: 60 })
    for (const bad of [['--wait'], ['--wait', '0'], ['--wait', '060'], ['--wait', '3601'], ['--verbose']]) expect(typeof parseHealthcheckArgs(bad)).toBe('string')
    const lines: string[] = []
    const err = (line: string) => lines.push(line)
    status = 200
    readyStatus = 503
    expect(await runHealthcheck('127.0.0.1', server.port!, err, { ready: true })).toBe(1)
    expect(lines.pop()).toBe(`healthcheck: http://127.0.0.1:${server.port}/v5/ready answered 503`)
    // Ready after a second: --wait 5 sees it.
    setTimeout(() => (readyStatus = 200), 1000)
    const started = Date.now()
    expect(await runHealthcheck('127.0.0.1', server.port!, err, { ready: true, waitSeconds: 5 })).toBe(0)
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    readyStatus = 503
    expect(await runHealthcheck('127.0.0.1', server.port!, err, { ready: true, waitSeconds: 1 })).toBe(1)
    expect(lines.pop()).toBe(`healthcheck: http://127.0.0.1:${server.port}/v5/ready answered 503 (still, after 1 s)`)
  })
})

// `openbell healthcheck` against a real listener: 0 for a 200 from /v5/health, else 1 with the
// URL it asked and what came back on stderr (it used to exit 1 without a word).
import { afterAll, describe, expect, test } from 'bun:test'
import { healthcheckUrl, runHealthcheck } from '../../src/cli/healthcheck'
import { freePort } from '../helpers/process'

let status = 200
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => new Response('{}', { status: new URL(request.url).pathname === '/v5/health' ? status : 404 }) })
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
})

// Errors raised below the routes. Those the app sees (Elysia's parse and validation errors, a
// malformed percent-encoding) carry the JSON error object; those Bun answers before the app runs
// (431, a malformed request line, a body over the server-wide ceiling) have no body, and
// docs/operations.md says so. This test pins both so a Bun upgrade that changes them is noticed.
import { afterAll, describe, expect, test } from 'bun:test'
import { listenOptions } from '../../src/http/listen'
import { MAX_REQUEST_BODY_BYTES } from '../../src/http/body'
import { makeTestApp } from '../helpers/app'
import { rawRequest } from '../helpers/raw-http'

const harness = makeTestApp()
const server = harness.app.listen({ ...listenOptions(harness.config), port: 0, hostname: '127.0.0.1' }).server!
afterAll(() => server.stop(true))

describe('framework-level errors', () => {
  test('errors the app can see are JSON error objects', async () => {
    for (const path of ['/v5/card/%ZZ', '/v5/nothing', '/v5/demo?mic=%E0%A4%A']) {
      const response = await fetch(`http://127.0.0.1:${server.port}${path}`)
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect(response.headers.get('content-type')).toContain('application/json')
      expect(typeof ((await response.json()) as { error: unknown }).error).toBe('string')
    }
  })

  test('Bun answers these itself, before the app, with an empty body and Connection: close (documented)', async () => {
    const cases: [string, number][] = [
      [`GET /v5/health HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ['GARBAGE\r\n\r\n', 400],
      [`POST /v5/verify HTTP/1.1\r\nhost: x\r\ncontent-length: ${MAX_REQUEST_BODY_BYTES + 1}\r\n\r\n`, 413],
    ]
    for (const [head, status] of cases) {
      const response = await rawRequest(server.port!, head, [], 2000)
      expect(response.status).toBe(status)
      expect(response.text.toLowerCase()).toContain('connection: close')
    }
  })
})

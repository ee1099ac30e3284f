// The Host header over a real socket (issue 24 item 2). fetch() normalises Host, so these
// requests are written by hand. Elysia takes the path from the URL Bun builds out of Host and
// the request line, skipping the first 11 characters as "http://a.bc": a Host of 1–3 characters
// moved the path start into the path itself (`Host: ab` + `/zz/v5/admin/overrides` was routed
// and logged as `/v5/admin/overrides`).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeTestApp, TEST_ADMIN_KEY, type TestApp } from '../helpers/app'
import { rawJson, rawRequest } from '../helpers/raw-http'

let harness: TestApp
let port: number

beforeAll(() => {
  harness = makeTestApp()
  port = harness.app.listen({ port: 0, hostname: '127.0.0.1' }).server!.port!
})
afterAll(async () => {
  await harness.app.stop(true)
})

/** One request with exactly these header lines (no Host unless given). */
const send = (requestLine: string, headers: string[]) => rawRequest(port, `${requestLine}\r\n${[...headers, 'Connection: close'].map((line) => `${line}\r\n`).join('')}\r\n`, [], 3000)

const SHORT_AND_ODD_HOSTS = ['x', 'ab', 'abc', 'a.b', '[::1]', '[::1]:8080', '[2001:db8::1]', 'localhost:8080', 'a:1', '127.0.0.1:80', 'oracle.example.com']

describe('the path comes from the request line, whatever the Host', () => {
  test('with a 1–3 character Host, /zz/v5/admin/overrides is not the admin route (even with the admin key)', async () => {
    for (const host of ['ab', 'x', 'abc', 'a:1']) {
      const answer = await send('GET /zz/v5/admin/overrides HTTP/1.1', [`Host: ${host}`, `X-Oracle-Key: ${TEST_ADMIN_KEY}`])
      expect({ host, status: answer.status }).toEqual({ host, status: 404 })
      expect(rawJson(answer.text).error).toBe('NOT_FOUND')
    }
    // …and it is logged under the path that was asked for.
    await Bun.sleep(5)
    const logged = harness.log.lines.filter((line) => line.msg === 'request').map((line) => line.path)
    expect(logged).toContain('/zz/v5/admin/overrides')
    expect(logged).not.toContain('/v5/admin/overrides')
    expect(logged).not.toContain('/overrides')
  })

  test('POST /v5/status is 405 (not 404) with every valid Host, short, IPv6 or with a port', async () => {
    for (const host of SHORT_AND_ODD_HOSTS) {
      const answer = await send('POST /v5/status HTTP/1.1', [`Host: ${host}`, 'Content-Length: 0'])
      expect({ host, status: answer.status }).toEqual({ host, status: 405 })
      expect(rawJson(answer.text).error).toBe('METHOD_NOT_ALLOWED')
    }
  })

  test('GET routes answer the same for every valid Host; a path one segment longer is 404', async () => {
    for (const host of SHORT_AND_ODD_HOSTS) {
      const ok = await send('GET /v5/schedule?mic=XLON HTTP/1.1', [`Host: ${host}`])
      expect({ host, status: ok.status }).toEqual({ host, status: 200 })
      expect(rawJson(ok.text).mic).toBe('XLON')
      const nested = await send('GET /ab/v5/exchanges HTTP/1.1', [`Host: ${host}`])
      expect({ host, status: nested.status }).toEqual({ host, status: 404 })
    }
  })
})

describe('a missing or malformed Host is refused with 400', () => {
  test('empty, with spaces, slashes, user info, a bad port, an unbracketed or unclosed IPv6 literal, or given twice: 400 INVALID_HOST', async () => {
    const malformed: string[][] = [['Host:'], ['Host: a b'], ['Host: x/y'], ['Host: x?y'], ['Host: x#y'], ['Host: u@x'], ['Host: x:99999'], ['Host: x:port'], ['Host: ::1'], ['Host: [::1'], ['Host: [zz::1]'], ['Host: a', 'Host: b'], ['Host: -x-:']]
    for (const headers of malformed) {
      for (const requestLine of ['GET /v5/exchanges HTTP/1.1', `GET /zz/v5/admin/overrides HTTP/1.1`, 'POST /v5/status HTTP/1.1']) {
        const answer = await send(requestLine, [...headers, `X-Oracle-Key: ${TEST_ADMIN_KEY}`, 'Content-Length: 0'])
        expect({ headers, requestLine, status: answer.status }).toEqual({ headers, requestLine, status: 400 })
        const body = rawJson(answer.text)
        expect(body.error).toBe('INVALID_HOST')
        expect(typeof body.message).toBe('string')
      }
    }
  })

  test('no Host at all: HTTP/1.0 gets the JSON 400 from the app; HTTP/1.1 is refused by Bun before the app runs', async () => {
    const old = await send('GET /v5/exchanges HTTP/1.0', [])
    expect(old.status).toBe(400)
    expect(rawJson(old.text).error).toBe('INVALID_HOST')
    // Bun answers this one itself (RFC 9112: a 1.1 request without Host is a 400), with no body.
    const current = await send('GET /v5/exchanges HTTP/1.1', [])
    expect(current.status).toBe(400)
  })

  test('on the witness routes the refusal has the witness shape: 400 bad_request with docs', async () => {
    const answer = await send('GET /v1/witness/checkpoints HTTP/1.1', ['Host: a b'])
    expect(answer.status).toBe(400)
    expect(rawJson(answer.text)).toMatchObject({ error: 'bad_request', reason: 'INVALID_HOST', docs: expect.stringContaining('/v1/witness/spec') })
  })

  test('a refused Host reaches no route: the admin key is not checked, nothing is logged as the admin path', async () => {
    const before = harness.log.lines.length
    await send('GET /v5/admin/overrides HTTP/1.1', ['Host: a b', `X-Oracle-Key: ${TEST_ADMIN_KEY}`])
    await Bun.sleep(5)
    const lines = harness.log.lines.slice(before).filter((line) => line.msg === 'request')
    expect(lines.map((line) => line.status)).toEqual([400])
  })
})

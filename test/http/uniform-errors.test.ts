// The same failure gets the same answer on every surface (issue 24 item 6): a stalled body is
// 408 with Connection: close everywhere, /mcp included; a full disk is 503 STORAGE_FULL (on /mcp
// as JSON-RPC -32603 carrying the error object), never a 500. The disk is a real, small tmpfs
// holding DATA_DIR, filled until SQLite itself reports SQLITE_FULL.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { closeSync, openSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { issueKey } from '../../src/accounts/keys'
import { listenOptions } from '../../src/http/listen'
import { makeTestApp, tempDir, TEST_ADMIN_KEY, type TestApp } from '../helpers/app'
import { rawJson, rawRequest } from '../helpers/raw-http'

describe('a body that stops arriving', () => {
  const harness = makeTestApp({ env: { BODY_TIMEOUT_MS: '300', PADDLE_WEBHOOK_SECRET: 'pdl-test-secret' } })
  let port = 0
  let proKey = ''
  beforeAll(async () => {
    port = harness.app.listen({ ...listenOptions(harness.config), port: 0, hostname: '127.0.0.1' }).server!.port!
    proKey = (await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })).key
  })
  afterAll(() => harness.app.stop(true))

  // Every route that reads a request body.
  const routes = (): [path: string, headers: string][] => [
    ['/mcp', 'content-type: application/json'],
    ['/v5/verify', 'content-type: application/json'],
    ['/v5/admin/overrides', `content-type: application/json\r\nx-oracle-key: ${TEST_ADMIN_KEY}`],
    ['/v5/x402/mint', 'content-type: application/json'],
    ['/v5/checkout', 'content-type: application/json'],
    ['/webhooks/paddle', 'content-type: application/json\r\npaddle-signature: ts=1;h1=00'],
    ['/v1/witness/checkpoints', 'content-type: application/json'],
    ['/v5/keys/instant', 'content-type: application/json'],
    ['/v5/keys/request', 'content-type: application/json'],
    ['/v5/sandbox', 'content-type: application/json'],
    ['/oauth/token', 'content-type: application/x-www-form-urlencoded'],
    ['/v5/webhooks/subscribe', `content-type: application/json\r\nx-oracle-key: ${proKey}`],
  ]

  test('gets 408 with Connection: close on every route that reads a body, /mcp included', async () => {
    const answers = await Promise.all(
      routes().map(async ([path, headers]) => {
        const response = await rawRequest(port, `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncf-connecting-ip: 192.0.2.44\r\n${headers}\r\ncontent-length: 100\r\n\r\n`, ['{"a":'], 4000)
        const head = response.text.slice(0, response.text.indexOf('\r\n\r\n')).toLowerCase()
        return { path, status: response.status, close: /\r\nconnection: close\r\n|\r\nconnection: close$/.test(head) }
      }),
    )
    for (const answer of answers) expect(answer).toEqual({ path: answer.path, status: 408, close: true })
  })
})

/** A tmpfs of `size` mounted on a fresh temp directory; null where mounting is not permitted. */
function mountTmpfs(size: string): string | null {
  const dir = tempDir('openbell-test-fulldisk-')
  const mounted = Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir])
  return mounted.exitCode === 0 ? dir : null
}

const mountPoint = process.getuid?.() === 0 ? mountTmpfs('3m') : null

describe.skipIf(mountPoint === null)('a full disk (tmpfs, filled until SQLITE_FULL)', () => {
  let harness: TestApp
  let key = ''
  const filler = join(mountPoint ?? '', 'filler')

  /** Fills the file system, then the database's WAL, until even a one-byte row is SQLITE_FULL. */
  function fillDisk(): void {
    const fd = openSync(filler, 'w')
    for (const size of [1 << 16, 512, 1]) {
      try {
        for (;;) writeSync(fd, new Uint8Array(size))
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC')
      }
    }
    closeSync(fd)
    for (const size of [1 << 16, 4096, 64, 1]) {
      try {
        for (;;) harness.db.run('INSERT INTO disk_filler VALUES (?)', [new Uint8Array(size)])
      } catch (error) {
        expect((error as { code?: string }).code).toBe('SQLITE_FULL')
      }
    }
  }

  beforeAll(async () => {
    harness = makeTestApp({ fileDatabase: true, env: { DATA_DIR: mountPoint! } })
    key = (await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })).key
    harness.db.run('CREATE TABLE disk_filler (b BLOB)')
    fillDisk()
  })

  afterAll(() => {
    try {
      harness?.db.close()
    } finally {
      // Lazy: a busy unmount must not leave the file system mounted.
      Bun.spawnSync(['umount', '-l', mountPoint!])
      rmSync(mountPoint!, { recursive: true, force: true })
    }
  })

  const mcp = (body: unknown, ip = '192.0.2.61', app = harness) => app.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip }, body: JSON.stringify(body) })

  test('/mcp when it must write before answering (its first use writes the client-hash salt): 503, JSON-RPC -32603 carrying {error: STORAGE_FULL}', async () => {
    const response = await mcp({ jsonrpc: '2.0', id: 7, method: 'tools/list' })
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('60')
    const body = (await response.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string; data: { error: string; message: string } } }
    expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: -32603, data: { error: 'STORAGE_FULL' } } })
    expect(typeof body.error.data.message).toBe('string')
    expect(harness.log.lines.filter((line) => line.msg === 'unhandled error')).toEqual([])
  })

  test('POST /v5/keys/instant: 503 STORAGE_FULL (not 500), and no key exists afterwards', async () => {
    const answer = await harness.json('/v5/keys/instant', { method: 'POST', headers: { 'content-type': 'application/json', 'cf-connecting-ip': '192.0.2.62' }, body: JSON.stringify({ agent_id: 'full-disk-agent' }) })
    expect({ status: answer.status, error: answer.body.error }).toEqual({ status: 503, error: 'STORAGE_FULL' })
    expect(answer.headers.get('retry-after')).toBe('60')
    expect(harness.db.query(`SELECT COUNT(*) AS n FROM api_keys WHERE agent_id = 'full-disk-agent'`).get()).toEqual({ n: 0 })
  })

  test('every other write surface answers 503 STORAGE_FULL too, never 500', async () => {
    const json = { 'content-type': 'application/json', 'cf-connecting-ip': '192.0.2.63' }
    const cases: [string, RequestInit][] = [
      ['/v5/sandbox', { method: 'POST', headers: json, body: JSON.stringify({ email: 'full@example.com' }) }],
      ['/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_id=${key}` }],
      ['/v5/webhooks/subscribe', { method: 'POST', headers: { ...json, 'x-oracle-key': key }, body: JSON.stringify({ url: 'https://93.184.215.14/hook', mics: ['XNYS'] }) }],
      ['/v5/admin/overrides', { method: 'POST', headers: { ...json, 'x-oracle-key': TEST_ADMIN_KEY }, body: JSON.stringify({ mic: 'XNYS', status: 'HALTED', reason: 'disk test', expires_at: new Date(harness.clock.now() + 3_600_000).toISOString() }) }],
    ]
    for (const [path, init] of cases) {
      const answer = await harness.json(path, init)
      expect({ path, status: answer.status, error: answer.body.error }).toEqual({ path, status: 503, error: 'STORAGE_FULL' })
    }
    // Live receipts keep their own code (no receipt is answered that is not logged), and say why.
    const status = await harness.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })
    expect({ status: status.status, error: status.body.error, cause: status.body.cause }).toEqual({ status: 503, error: 'AUDIT_LOG_UNAVAILABLE', cause: 'STORAGE_FULL' })
    expect(harness.log.lines.filter((line) => line.msg === 'unhandled error')).toEqual([])
  })

  test('/mcp after its first use: calls that write nothing answer; the status tool is an isError result saying the storage is full', async () => {
    rmSync(filler)
    expect((await mcp({ jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(200)
    fillDisk()
    expect((await mcp({ jsonrpc: '2.0', id: 10, method: 'tools/list' })).status).toBe(200)
    const response = await mcp({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'get_market_status', arguments: { mic: 'XNYS' } } }, '192.0.2.64')
    const tool = (await response.json()) as { result?: { isError: boolean; content: { text: string }[] } }
    expect(tool.result?.isError).toBe(true)
    expect(JSON.parse(tool.result!.content[0]!.text)).toMatchObject({ error: 'AUDIT_LOG_UNAVAILABLE', cause: 'STORAGE_FULL' })
  })

  test('once space is freed the same requests succeed', async () => {
    rmSync(filler)
    harness.db.run('DELETE FROM disk_filler')
    const answer = await harness.json('/v5/keys/instant', { method: 'POST', headers: { 'content-type': 'application/json', 'cf-connecting-ip': '192.0.2.65' }, body: JSON.stringify({ agent_id: 'after-the-disk-was-freed' }) })
    expect(answer.status).toBe(200)
    expect((await mcp({ jsonrpc: '2.0', id: 9, method: 'ping' }, '192.0.2.66')).status).toBe(200)
  })
})

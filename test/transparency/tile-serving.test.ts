// How tiles and entry bundles are served (C2SP tlog-tiles, issue 30): one path per tile (an index
// with leading zero groups is 404, not a year-long cached alias), full bundles gzip-encoded to
// clients that take gzip (q=0 refuses it) and, decoded, from a small cache: gunzipped once.
import { beforeAll, describe, expect, test } from 'bun:test'
import { gunzipSync } from 'node:zlib'
import { issueKey } from '../../src/accounts/keys'
import { acceptsGzip } from '../../src/http/accept-encoding'
import { DECODED_BUNDLES } from '../../src/transparency/reader'
import { decodeBundle } from '../../src/transparency/tiles'
import { makeTestApp, type TestApp } from '../helpers/app'

let t: TestApp

beforeAll(async () => {
  t = makeTestApp()
  const { key } = await issueKey(t.deps.accounts, { plan: 'pro', now: new Date(t.clock.now()) })
  for (let i = 0; i < 300; i++) expect((await t.request('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })).status).toBe(200)
  await t.deps.audit.flush()
  expect(await t.deps.transparency.integrator.tick()).toBe(300)
}, 60_000)

describe('tile paths', () => {
  test('only the canonical path of a tile answers; leading zero groups are 404 TILE_NOT_FOUND', async () => {
    for (const path of ['/log/tile/0/000', '/log/tile/entries/000', '/log/tile/0/001.p/44', '/log/tile/1/000.p/1']) expect({ path, status: (await t.request(path)).status }).toEqual({ path, status: 200 })
    for (const path of ['/log/tile/0/x000/000', '/log/tile/0/x000/x000/000', '/log/tile/entries/x000/000', '/log/tile/0/x000/001.p/44', '/log/tile/1/x000/000.p/1', '/log/tile/00/000', '/log/tile/0/000.p/044']) {
      const answer = await t.request(path)
      expect({ path, status: answer.status, cache: answer.headers.get('cache-control') }).toEqual({ path, status: 404, cache: null })
      expect(((await answer.json()) as { error: string }).error).toBe('TILE_NOT_FOUND')
    }
  })
})

describe('entry bundles', () => {
  test('gzip-encoded to a client that takes gzip (Vary: Accept-Encoding); decoded otherwise, the same entries', async () => {
    const gzipped = await t.request('/log/tile/entries/000', { headers: { 'accept-encoding': 'br, gzip;q=0.5' } })
    expect([gzipped.headers.get('content-encoding'), gzipped.headers.get('vary')]).toEqual(['gzip', 'Accept-Encoding'])
    const entries = decodeBundle(gunzipSync(new Uint8Array(await gzipped.arrayBuffer())))!
    expect(entries).toHaveLength(256)
    for (const accept of [null, 'identity', 'gzip;q=0', 'br']) {
      const plain = await t.request('/log/tile/entries/000', accept === null ? {} : { headers: { 'accept-encoding': accept } })
      expect({ accept, encoding: plain.headers.get('content-encoding'), vary: plain.headers.get('vary') }).toEqual({ accept, encoding: null, vary: 'Accept-Encoding' })
      expect(decodeBundle(new Uint8Array(await plain.arrayBuffer()))).toEqual(entries)
    }
  })

  test('decoded once: repeated plain reads and partial reads of a full bundle gunzip it no more', async () => {
    const reader = t.deps.transparency.reader
    await t.request('/log/tile/entries/000')
    const before = reader.gunzipped
    for (let i = 0; i < 20; i++) await (await t.request('/log/tile/entries/000')).arrayBuffer()
    const partial = decodeBundle(new Uint8Array(await (await t.request('/log/tile/entries/000.p/10')).arrayBuffer()))!
    expect(partial).toHaveLength(10)
    expect(reader.gunzipped).toBe(before)
    // The cache is small: a bundle is about 256 receipts, the budget a few MB.
    expect(DECODED_BUNDLES.maxBytes).toBeLessThanOrEqual(16 * 2 ** 20)
  })

  test('Accept-Encoding is read by its qualities', () => {
    const cases: [string | null, boolean][] = [[null, false], ['', false], ['gzip', true], ['GZIP', true], ['deflate, gzip', true], ['gzip;q=0', false], ['gzip; q=0.0', false], ['gzip;q=0.001', true], ['*', true], ['*;q=0', false], ['br', false], ['identity', false], ['x-gzip', true], ['gzip;q=0, *', false]]
    for (const [header, expected] of cases) expect({ header, accepts: acceptsGzip(header) }).toEqual({ header, accepts: expected })
  })
})

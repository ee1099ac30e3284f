// /v5/archive and /v5/receipts: plans, windows, paging and errors.
import { describe, expect, test } from 'bun:test'
import { hashKey, issueKey } from '../../src/accounts/keys'
import { auditRowOf } from '../../src/audit/record'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { makeTestApp } from '../helpers/app'

const NOW = '2026-03-10T15:00:00.000Z'

async function setup() {
  const harness = makeTestApp({ now: NOW })
  const key = async (plan: 'pro' | 'builder' | 'free' | 'sandbox') => (await issueKey(harness.deps.accounts, { plan, now: new Date(NOW) })).key
  const get = (path: string, apiKey?: string) => harness.json(path, apiKey ? { headers: { 'x-oracle-key': apiKey } } : {})
  return { harness, key, get }
}

describe('GET /v5/archive', () => {
  test('every live receipt of the MIC and day, whoever asked; the archives of every venue of a day equal the digest', async () => {
    const { harness, key, get } = await setup()
    const [pro, builder] = [await key('pro'), await key('builder')]
    const a = (await get('/v5/status?mic=XNYS', pro)).body
    const b = (await get('/v5/status?mic=XNYS', builder)).body
    await get('/v5/batch?mics=XLON,XNYS', pro)
    const archive = await get('/v5/archive', builder)
    expect(archive.status).toBe(200)
    expect(archive.body).toMatchObject({ mic: 'XNYS', date: '2026-03-10', count: 3, next_cursor: null })
    expect(archive.body.receipts.slice(0, 2)).toEqual([a, b])
    let union: string[] = []
    for (const mic of SUPPORTED_MICS) union = union.concat((await get(`/v5/archive?mic=${mic}`, pro)).body.receipts.map((r: { receipt_id: string }) => r.receipt_id))
    const digest = (await harness.json('/v5/audit/digest')).body
    expect(union.sort()).toEqual([...digest.receipt_ids].sort())
    expect(digest.exchanges_attested).toEqual(['XLON', 'XNYS'])
  })

  test('plans: builder and pro read 30 days back; free and sandbox today only (403); key errors', async () => {
    const { get, key } = await setup()
    const [pro, builder, free, sandbox] = [await key('pro'), await key('builder'), await key('free'), await key('sandbox')]
    for (const k of [pro, builder]) {
      expect((await get('/v5/archive?date=2026-02-08', k)).status).toBe(200)
      const far = await get('/v5/archive?date=2026-02-07', k)
      expect(far.status).toBe(403)
      expect(far.body.error).toBe('ARCHIVE_WINDOW_EXCEEDED')
    }
    for (const k of [free, sandbox]) {
      expect((await get('/v5/archive?date=2026-03-10', k)).status).toBe(200)
      const yesterday = await get('/v5/archive?date=2026-03-09', k)
      expect(yesterday.status).toBe(403)
      expect(yesterday.body.error).toBe('PLAN_ARCHIVE_TODAY_ONLY')
    }
    expect((await get('/v5/archive')).status).toBe(401)
    expect((await get('/v5/archive', 'svc_live_' + '0'.repeat(64))).status).toBe(403)
    expect((await get('/v5/archive?date=2026-02-30', pro)).body.error).toBe('INVALID_DATE')
    expect((await get('/v5/archive?date=2026-03-11', pro)).status).toBe(400)
    expect((await get('/v5/archive?mic=NOPE', pro)).body.error).toBe('UNKNOWN_MIC')
    expect((await get('/v5/archive?cursor=abc', pro)).body.error).toBe('INVALID_CURSOR')
  })

  test('a day of more than 1,000 receipts is paged by cursor; count covers all pages', async () => {
    const { harness, key, get } = await setup()
    const pro = await key('pro')
    // 2,345 rows through the real log (the HTTP path is covered above; this is about paging).
    const rows = Array.from({ length: 2345 }, (_, i) => {
      const receipt = { receipt_id: crypto.randomUUID(), issued_at: new Date(Date.parse(NOW) - 1000 + i).toISOString(), schema_version: 'v5.0', mic: i % 5 ? 'XNYS' : 'XLON', status: 'OPEN', source: 'SCHEDULE' }
      return auditRowOf(receipt, { surface: '/v5/status', keyHash: 'f'.repeat(64) })
    })
    await harness.deps.audit.append(rows)
    const xnys = rows.filter((row) => row.mic === 'XNYS').map((row) => row.receipt_id)
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page: { body: { count: number; receipts: { receipt_id: string }[]; next_cursor: string | null } } = await get(`/v5/archive${cursor ? `?cursor=${cursor}` : ''}`, pro)
      expect(page.body.count).toBe(xnys.length)
      expect(page.body.receipts.length).toBeLessThanOrEqual(1000)
      seen.push(...page.body.receipts.map((r) => r.receipt_id))
      cursor = page.body.next_cursor
      pages++
    } while (cursor)
    expect(pages).toBe(2)
    expect(seen).toEqual(xnys)

    // The digest's receipt_ids page at 10,000; total_receipts_issued counts all pages.
    const more = Array.from({ length: 8000 }, (_, i) => auditRowOf({ receipt_id: crypto.randomUUID(), issued_at: new Date(Date.parse(NOW) + i).toISOString(), schema_version: 'v5.0', mic: 'XHKG', status: 'CLOSED', source: 'SCHEDULE' }, { surface: '/v5/batch', paymentRef: 'x402:test' }))
    await harness.deps.audit.append(more)
    const first = (await harness.json('/v5/audit/digest')).body
    expect(first.total_receipts_issued).toBe(10_345)
    expect(first.receipt_ids).toHaveLength(10_000)
    const second = (await harness.json(`/v5/audit/digest?cursor=${first.next_cursor}`)).body
    expect(second.next_cursor).toBeNull()
    expect([...first.receipt_ids, ...second.receipt_ids]).toEqual([...rows, ...more].map((row) => row.receipt_id))
    expect(second.merkle_root).toBe(first.merkle_root)
  })
})

describe('GET /v5/archive of a sealed day', () => {
  test('its count is the day\'s rows of the venue on every page and request (kept once sealed), and the receipts are those answered', async () => {
    const { harness, key, get } = await setup()
    const pro = await key('pro')
    const answered = [(await get('/v5/status?mic=XNYS', pro)).body, (await get('/v5/status?mic=XNYS', pro)).body]
    await get('/v5/status?mic=XLON', pro)
    const before = (await get('/v5/archive?mic=XNYS', pro)).body
    expect(before).toEqual({ mic: 'XNYS', date: '2026-03-10', count: 2, receipts: answered, next_cursor: null })
    harness.clock.set('2026-03-11T00:00:20.000Z')
    expect(await harness.deps.auditTrail.sealer.tick()).toEqual(['2026-03-10'])
    for (let i = 0; i < 2; i++) {
      const sealed = await get('/v5/archive?mic=XNYS&date=2026-03-10', pro)
      expect(sealed.status).toBe(200)
      expect(sealed.body).toEqual(before)
    }
    expect((await get('/v5/archive?mic=XLON&date=2026-03-10', pro)).body.count).toBe(1)
    expect((await get('/v5/archive?mic=XHKG&date=2026-03-10', pro)).body).toEqual({ mic: 'XHKG', date: '2026-03-10', count: 0, receipts: [], next_cursor: null })
  })
})

describe('GET /v5/receipts', () => {
  test("a builder or pro key's own receipts as audit rows; limit, mic and from (strictly after)", async () => {
    const { harness, key, get } = await setup()
    const [pro, other] = [await key('pro'), await key('builder')]
    const mine: Record<string, string>[] = []
    for (let i = 0; i < 6; i++) {
      mine.push((await get(`/v5/status?mic=${i % 2 ? 'XLON' : 'XNYS'}`, pro)).body)
      harness.clock.advance(1000)
    }
    await get('/v5/status', other)
    const all = await get('/v5/receipts', pro)
    expect(all.status).toBe(200)
    expect(all.body.count).toBe(6)
    expect(all.body.receipts[0]).toEqual({ mic: 'XNYS', status: mine[0]!.status, source: mine[0]!.source, issued_at: mine[0]!.issued_at, schema_version: 'v5.0' })
    expect(Object.keys(all.body.receipts[0]).sort()).toEqual(['issued_at', 'mic', 'schema_version', 'source', 'status'])
    expect((await get('/v5/receipts?limit=2', pro)).body.receipts.map((r: { issued_at: string }) => r.issued_at)).toEqual([mine[4]!.issued_at, mine[5]!.issued_at])
    expect((await get('/v5/receipts?mic=XLON', pro)).body.count).toBe(3)
    const after = await get(`/v5/receipts?from=${mine[2]!.issued_at}`, pro)
    expect(after.body.receipts.map((r: { issued_at: string }) => r.issued_at)).toEqual(mine.slice(3).map((r) => r.issued_at))
    expect((await get('/v5/receipts', other)).body.count).toBe(1)
  })

  test('from: rows around midnight committed out of day order are all found; a from after every row gives none', async () => {
    const { harness, key, get } = await setup()
    const pro = await key('pro')
    const keyHash = hashKey(pro)
    const row = (issued_at: string) => auditRowOf({ receipt_id: crypto.randomUUID(), issued_at, schema_version: 'v5.0', mic: 'XNYS', status: 'CLOSED', source: 'SCHEDULE' }, { surface: '/v5/status', keyHash })
    // Older days, then a receipt of the new day committed before a late one of the day before.
    await harness.deps.audit.append([row('2026-03-07T12:00:00.000Z'), row('2026-03-08T12:00:00.000Z')])
    await harness.deps.audit.append([row('2026-03-10T00:00:00.100Z')])
    await harness.deps.audit.append([row('2026-03-09T23:59:59.900Z')])
    const issued = async (from: string) => (await get(`/v5/receipts?from=${from}`, pro)).body.receipts.map((r: { issued_at: string }) => r.issued_at)
    expect(await issued('2026-03-09T23:59:59.000Z')).toEqual(['2026-03-10T00:00:00.100Z', '2026-03-09T23:59:59.900Z'])
    expect(await issued('2026-03-09T23:59:59.900Z')).toEqual(['2026-03-10T00:00:00.100Z'])
    expect(await issued('2026-03-08T00:00:00.000Z')).toHaveLength(3)
    expect(await issued('2026-03-05T00:00:00.000Z')).toHaveLength(4)
    expect(await issued('2026-03-10T13:00:00.000Z')).toEqual([])
  })

  test('402 for free and sandbox keys; 400 for limit 201, 0, or a bad from; 401/403 for key errors', async () => {
    const { key, get } = await setup()
    for (const plan of ['free', 'sandbox'] as const) {
      const response = await get('/v5/receipts', await key(plan))
      expect(response.status).toBe(402)
      expect(response.body.error).toBe('PLAN_UPGRADE_REQUIRED')
    }
    const pro = await key('pro')
    expect((await get('/v5/receipts?limit=200', pro)).status).toBe(200)
    for (const bad of ['limit=201', 'limit=0', 'limit=1.5', 'from=yesterday', 'mic=NOPE']) expect((await get(`/v5/receipts?${bad}`, pro)).status).toBe(400)
    expect((await get('/v5/receipts?limit=201', pro)).body.error).toBe('INVALID_LIMIT')
    expect((await get('/v5/receipts')).status).toBe(401)
    expect((await get('/v5/receipts', 'sb_' + '0'.repeat(64))).status).toBe(403)
  })
})

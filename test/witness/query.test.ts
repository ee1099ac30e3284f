import { describe, expect, test } from 'bun:test'
import { PAGE_AFTER_SQL, PAGE_FROM_SQL } from '../../src/witness/store'
import { submitCheckpoint } from '../../src/witness/service'
import { checkSubmission } from '../../src/witness/checks'
import { makeTestApp } from '../helpers/app'
import { forEachBackendApp, type BackendApp } from '../helpers/backend-app'
import { clientKey, entryHash, submission, type ClientKey } from '../helpers/checkpoints'

const PATH = '/v1/witness/checkpoints'
const kid = 'A'.repeat(43)
const hash = entryHash(1)

async function store(harness: BackendApp, key: ClientKey, count: number, salt = '', sessionId = 'session-1') {
  const verified = checkSubmission(submission(key, { count, session_id: sessionId, last_entry_hash: entryHash(count, salt) }))
  if (!verified.ok) throw new Error(verified.message)
  const deps = { store: harness.deps.witness.store, transactor: harness.deps.transactor, signer: harness.deps.signer, witness: 'oracle.test', limits: { anonymousDailyCap: 1e9, maxRows: 0, maxBytes: 0 } }
  return submitCheckpoint(deps, verified.value, { pool: 'anonymous' }, harness.clock.now())
}

forEachBackendApp('witness query', (make) => {
  describe('GET /v1/witness/checkpoints', () => {
    test('pages over more than 1,000 receipts, with many at one count, reaching each exactly once in order', async () => {
      const harness = await make()
      const key = clientKey()
      for (let count = 1; count <= 1000; count++) await store(harness, key, count)
      for (let fork = 0; fork < 60; fork++) await store(harness, key, 500, `fork-${fork}`)
      await store(harness, clientKey(), 1) // another kid: never in this listing
      await store(harness, key, 1, '', 'other-session')

      const seen: string[] = []
      let after: string | undefined
      let pages = 0
      for (;;) {
        const response = await harness.request(`${PATH}?kid=${key.kid}&session_id=session-1${after ? `&after=${encodeURIComponent(after)}` : ''}`, { headers: { 'cf-connecting-ip': `203.0.113.${pages}` } })
        expect(response.status).toBe(200)
        const text = await response.text()
        const page = JSON.parse(text) as { kid: string; session_id: string; receipts: Record<string, string>[]; next_after?: string }
        expect(page.kid).toBe(key.kid)
        expect(page.session_id).toBe('session-1')
        expect(page.receipts.length).toBeLessThanOrEqual(500)
        for (const receipt of page.receipts) seen.push(`${receipt.count}:${receipt.last_entry_hash}`)
        pages++
        if (!page.next_after) break
        expect(page.next_after).toBe(`${page.receipts.at(-1)!.count}:${page.receipts.at(-1)!.last_entry_hash}`)
        after = page.next_after
      }
      expect(pages).toBe(3)
      expect(seen).toHaveLength(1060)
      expect(new Set(seen).size).toBe(1060)
      const order = seen.map((pair) => {
        const [count, hash] = [Number(pair.split(':')[0]), pair.slice(pair.indexOf(':') + 1)]
        return { count, hash }
      })
      for (let i = 1; i < order.length; i++) {
        const a = order[i - 1]!
        const b = order[i]!
        expect(a.count < b.count || (a.count === b.count && a.hash < b.hash)).toBe(true)
      }
    }, 120_000)

    test('a full last page has no next_after when nothing follows', async () => {
      const harness = await make()
      const key = clientKey()
      for (let count = 1; count <= 500; count++) await store(harness, key, count)
      const page = (await harness.json(`${PATH}?kid=${key.kid}&session_id=session-1`)).body
      expect(page.receipts).toHaveLength(500)
      expect(page.next_after).toBeUndefined()
    })

    test('receipts come back exactly as stored', async () => {
      const harness = await make()
      const key = clientKey()
      const outcome = await store(harness, key, 1)
      const text = await (await harness.request(`${PATH}?kid=${key.kid}&session_id=session-1`)).text()
      expect(outcome.kind).toBe('stored')
      expect(text).toContain((outcome as { receiptJson: string }).receiptJson)
    })

    test('an unknown pair is 200 with an empty list', async () => {
      const harness = await make()
      const { status, body } = await harness.json(`${PATH}?kid=${clientKey().kid}&session_id=nobody`)
      expect(status).toBe(200)
      expect(body).toEqual({ kid: body.kid, session_id: 'nobody', receipts: [] })
    })

    for (const [name, query] of [
      ['missing kid', 'session_id=s'],
      ['missing session_id', `kid=${kid}`],
      ['short kid', `kid=${kid.slice(1)}&session_id=s`],
      ['kid with a bad character', `kid=${kid.slice(1)}%2B&session_id=s`],
      ['empty session_id', `kid=${kid}&session_id=`],
      ['129-character session_id', `kid=${kid}&session_id=${'s'.repeat(129)}`],
      ['after without a colon', `kid=${kid}&session_id=s&after=5`],
      ['after with a negative count', `kid=${kid}&session_id=s&after=-1:${hash}`],
      ['after with a leading zero', `kid=${kid}&session_id=s&after=01:${hash}`],
      ['after past the safe range', `kid=${kid}&session_id=s&after=9007199254740993:${hash}`],
      ['after with a bad hash', `kid=${kid}&session_id=s&after=1:sha256:xyz`],
      ['a repeated parameter', `kid=${kid}&kid=${kid}&session_id=s`],
    ] as const) {
      test(`${name} → 400 bad_request with docs`, async () => {
        const { status, body } = await (await make()).json(`${PATH}?${query}`)
        expect(status).toBe(400)
        expect(body).toMatchObject({ error: 'bad_request', docs: 'https://oracle.test/v1/witness/spec' })
      })
    }

    test('after=0:<hash> and 128-character session ids are accepted', async () => {
      const harness = await make()
      expect((await harness.json(`${PATH}?kid=${kid}&session_id=${'語'.repeat(128)}&after=0:${hash}`)).status).toBe(200)
    })
  })

  describe('CORS', () => {
    test('preflight for GET and POST from any origin, exposing Retry-After', async () => {
      const harness = await make()
      for (const method of ['GET', 'POST']) {
        const response = await harness.request(PATH, { method: 'OPTIONS', headers: { origin: 'https://viewer.example', 'access-control-request-method': method, 'access-control-request-headers': 'content-type, authorization' } })
        expect(response.status).toBe(204)
        expect(response.headers.get('access-control-allow-origin')).toBe('https://viewer.example')
        expect(response.headers.get('access-control-allow-methods')).toContain(method)
        expect(response.headers.get('access-control-allow-headers')!.toLowerCase()).toContain('authorization')
        expect(response.headers.get('access-control-expose-headers')).toContain('Retry-After')
      }
      const get = await harness.request(`${PATH}?kid=${kid}&session_id=s`, { headers: { origin: 'https://viewer.example' } })
      expect(get.headers.get('access-control-allow-origin')).toBe('https://viewer.example')
      expect(get.headers.get('access-control-expose-headers')).toContain('Retry-After')
      expect(get.headers.get('vary')).toBe('Origin')
    })

    test('the spec page that docs links to is served as Markdown', async () => {
      const response = await (await make()).request('/v1/witness/spec')
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toStartWith('text/markdown')
      expect(await response.text()).toContain('witness-spec/0.5')
    })
  })
})

// SQLite's query plan (PostgreSQL pages with the same row-value range over the same unique index).
describe('witness query plan [sqlite]', () => {
  test('pages are served from the identity index, never a table scan', () => {
    const harness = makeTestApp()
    for (const sql of [PAGE_FROM_SQL, PAGE_AFTER_SQL]) {
      const args = sql === PAGE_FROM_SQL ? [kid, 's', 501] : [kid, 's', 1, hash, 501]
      const plan = (harness.db.query(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((row) => row.detail).join(' | ')
      expect(plan).toContain('USING INDEX witness_identity')
      expect(plan).not.toMatch(/SCAN witness_checkpoints(?! USING)/)
      expect(plan).not.toContain('TEMP B-TREE')
    }
  })
})

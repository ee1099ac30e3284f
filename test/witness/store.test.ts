import { describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { createHash } from 'node:crypto'
import { Signer } from '../../src/crypto/signer'
import { sqliteWitnessStore } from '../../src/witness/store'
import { SQL } from 'bun'
import { forEachBackendApp, type BackendApp } from '../helpers/backend-app'
import { makeTestApp } from '../helpers/app'
import { freePort } from '../helpers/process'
import { clientKey, entryHash, jcs, postJson, signCheckpoint, submission } from '../helpers/checkpoints'
import { verifyWithRegistry } from '../helpers/verify'

const PATH = '/v1/witness/checkpoints'
let ip = 0
async function post(harness: Pick<BackendApp, 'request'>, body: unknown) {
  const response = await harness.request(PATH, postJson(body, { 'cf-connecting-ip': `192.0.2.${++ip % 250}` }))
  const text = await response.text()
  return { status: response.status, text, body: JSON.parse(text) as Record<string, string> }
}

forEachBackendApp('witness store', (make, backend) => {
  describe('storing checkpoints', () => {
    test('first submission → 201 with a receipt of exactly the witness fields, verifiable with /v5/keys', async () => {
      const harness = await make({ now: '2026-03-10T15:00:00.000Z' })
      const key = clientKey()
      const body = submission(key, { count: 7 })
      const { status, body: receipt } = await post(harness, body)
      expect(status).toBe(201)
      const keys = (await harness.json('/v5/keys')).body
      expect(Object.keys(receipt).filter((k) => k !== 'signature').sort()).toEqual(keys.canonical_payload_spec.witness_fields)
      expect(receipt).toMatchObject({
        type: 'witness.checkpoint/1',
        witness: 'oracle.test',
        received_at: '2026-03-10T15:00:00.000Z',
        kid: key.kid,
        session_id: 'session-1',
        count: '7',
        last_entry_hash: body.checkpoint.last_entry_hash,
        checkpoint_ts: body.checkpoint.ts,
        fork: 'false',
        public_key_id: 'key_2026_v1',
      })
      expect(receipt.checkpoint_sha256).toBe(`sha256:${createHash('sha256').update(jcs(body.checkpoint)).digest('hex')}`)
      for (const value of Object.values(receipt)) expect(typeof value).toBe('string')
      expect(verifyWithRegistry(keys, receipt)).toBe(true)
      expect((await harness.json('/v5/verify', postJson({ receipt }))).body).toMatchObject({ valid: true, receipt_type: 'witness_fields' })
    })

    test('a repeat of the identity (other ts and sig) → 200 with the stored receipt, byte for byte', async () => {
      const harness = await make({ now: '2026-03-10T15:00:00.000Z' })
      const key = clientKey()
      const first = await post(harness, submission(key, { count: 3 }))
      harness.clock.advance(5000)
      const again = await post(harness, submission(key, { count: 3, ts: '2026-03-10T15:00:09Z' }))
      expect(again.status).toBe(200)
      expect(again.text).toBe(first.text)
      expect(await harness.witnessRows()).toBe(1)
    })

    test('same (kid, session_id, count) with another hash is a fork', async () => {
      const harness = await make()
      const key = clientKey()
      expect((await post(harness, submission(key, { count: 5, last_entry_hash: entryHash(5, 'a') }))).body.fork).toBe('false')
      const fork = await post(harness, submission(key, { count: 5, last_entry_hash: entryHash(5, 'b') }))
      expect(fork.status).toBe(201)
      expect(fork.body.fork).toBe('true')
      // Another session or count is not a fork.
      expect((await post(harness, submission(key, { count: 5, session_id: 'other', last_entry_hash: entryHash(5, 'c') }))).body.fork).toBe('false')
    })

    test('concurrent submissions of one identity store one row and all get that row', async () => {
      const harness = await make()
      const key = clientKey()
      const bodies = Array.from({ length: 12 }, (_, i) => ({ checkpoint: signCheckpoint(key, { count: 9, ts: `2026-03-10T15:00:${String(i).padStart(2, '0')}Z` }), public_key_jwk: key.jwk }))
      const results = await Promise.all(bodies.map((body) => post(harness, body)))
      expect(results.filter((r) => r.status === 201)).toHaveLength(1)
      expect(results.filter((r) => r.status === 200)).toHaveLength(11)
      expect(new Set(results.map((r) => r.text)).size).toBe(1)
      expect(await harness.witnessRows()).toBe(1)
    })

    test('rows can be neither updated nor deleted', async () => {
      const harness = await make()
      await post(harness, submission(clientKey()))
      await expect(harness.query('UPDATE witness_checkpoints SET fork = 1')).rejects.toThrow(/append-only/)
      await expect(harness.query('DELETE FROM witness_checkpoints')).rejects.toThrow(/append-only/)
      expect(await harness.witnessRows()).toBe(1)
    })
  })

  describe('store unavailable → 503 witness_unavailable, and no receipt for anything not stored', () => {
    test.skipIf(backend !== 'postgres')('the database unreachable: 503 and no receipt', async () => {
      const gone = new SQL({ url: `postgres://postgres@127.0.0.1:${freePort()}/gone`, max: 1, connectionTimeout: 2 })
      const harness = await make({ pool: gone })
      try {
        const result = await post(harness, submission(clientKey()))
        expect(result.status).toBe(503)
        expect(result.body.error).toBe('witness_unavailable')
        expect(result.body.signature).toBeUndefined()
        expect(await harness.witnessRows()).toBe(0)
      } finally {
        await gone.close()
      }
    })

    test('signer offline: 503 and nothing stored', async () => {
      const harness = await make({ signer: Signer.offline('test') })
      const result = await post(harness, submission(clientKey()))
      expect(result.status).toBe(503)
      expect(await harness.witnessRows()).toBe(0)
    })

    test('storage ceiling: new checkpoints 503, repeats 200, reads work', async () => {
      const harness = await make({ env: { WITNESS_MAX_ROWS: '2' }, freshDatabase: true })
      const key = clientKey()
      expect((await post(harness, submission(key, { count: 1 }))).status).toBe(201)
      expect((await post(harness, submission(key, { count: 2 }))).status).toBe(201)
      const full = await post(harness, submission(key, { count: 3 }))
      expect(full.status).toBe(503)
      expect(full.body.error).toBe('witness_unavailable')
      expect((await post(harness, submission(key, { count: 2 }))).status).toBe(200)
      expect((await harness.json(`${PATH}?kid=${key.kid}&session_id=session-1`)).body.receipts).toHaveLength(2)
    })
  })
})

// SQLite's own ways to be unavailable (PostgreSQL's: the database unreachable, above).
describe('SQLite store unavailable → 503 witness_unavailable', () => {
  test('database locked past the busy timeout', async () => {
    const harness = makeTestApp({ fileDatabase: true })
    const path = harness.config.databasePath
    harness.db.run('PRAGMA busy_timeout = 50')
    harness.deps.witness.store = sqliteWitnessStore(harness.db)
    const holder = new Database(path)
    holder.run('BEGIN IMMEDIATE')
    try {
      const result = await post(harness, submission(clientKey()))
      expect(result.status).toBe(503)
      expect(result.body.error).toBe('witness_unavailable')
      expect(result.body.signature).toBeUndefined()
    } finally {
      holder.run('ROLLBACK')
      holder.close()
    }
    expect((harness.db.query('SELECT count(*) AS n FROM witness_checkpoints').get() as { n: number }).n).toBe(0)
  })

  test('a read-only database: submissions 503, reads keep working', async () => {
    const harness = makeTestApp({ fileDatabase: true })
    const key = clientKey()
    await post(harness, submission(key, { count: 1 }))
    harness.db.run('PRAGMA wal_checkpoint(TRUNCATE)')
    const readOnly = new Database(harness.config.databasePath, { readonly: true })
    harness.deps.witness.store = sqliteWitnessStore(readOnly)
    const result = await post(harness, submission(key, { count: 2 }))
    expect(result.status).toBe(503)
    expect(result.body.error).toBe('witness_unavailable')
    const page = await harness.json(`${PATH}?kid=${key.kid}&session_id=session-1`)
    expect(page.status).toBe(200)
    expect(page.body.receipts).toHaveLength(1)
  })
})

// The witness on PostgreSQL under contention: checkpoints submitted in bulk to two real nodes on
// one database are all stored (no 503: "nothing was stored" must not be the answer to load), and
// racing submissions of the same identities and of forks give one row each and the same receipt.
// Client addresses come from CLIENT_IP_HEADER, so the per-address rate does not refuse the burst.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Pair } from '../helpers/two-nodes'
import { clockOffsetTo, SLOW_SETUP_MS } from '../helpers/process'
import { startClusterFirst } from '../helpers/postgres'
import { clientKey, entryHash, postJson, signCheckpoint, submission } from '../helpers/checkpoints'
import { issueKey } from '../../src/accounts/keys'
import { postgresAccountStore } from '../../src/accounts/store-postgres'

startClusterFirst()

const BULK = 1050
const offset = clockOffsetTo('12:00:00.000')
let pair: Pair

beforeAll(async () => {
  pair = await Pair.start({ clockOffsetMs: offset, env: { CLIENT_IP_HEADER: 'x-real-ip', WITNESS_ANON_DAILY_CAP: '100000' } })
}, SLOW_SETUP_MS)
afterAll(async () => {
  await pair?.stop()
})

const from = (i: number) => ({ 'x-real-ip': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` })
const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {})

describe('witness on PostgreSQL under contention', () => {
  test(`${BULK} checkpoints in bulk over two nodes: every one stored, no 503`, async () => {
    const ts = new Date(Date.now() + offset).toISOString()
    // Many sessions of a few clients, all in flight at once, round-robin over both nodes.
    const clients = Array.from({ length: 7 }, () => clientKey())
    const answers = await Promise.all(
      Array.from({ length: BULK }, async (_, i) => {
        const body = submission(clients[i % clients.length]!, { session_id: `bulk-${i % 30}`, count: i + 1, ts })
        const response = await pair.fetch('/v1/witness/checkpoints', postJson(body, from(i)))
        return { status: response.status, body: (await response.json()) as Record<string, unknown> }
      }),
    )
    const refused = answers.filter((answer) => answer.status !== 201)
    expect({ statuses: tally(answers.map((answer) => answer.status)), first: refused[0]?.body }).toEqual({ statuses: { 201: BULK }, first: undefined })
    const [row] = await pair.database.sql`SELECT count(*)::int AS n FROM witness_checkpoints WHERE session_id LIKE 'bulk-%'`
    expect(row).toEqual({ n: BULK })
    const [usage] = await pair.database.sql`SELECT sum(rows)::int AS n FROM witness_daily_usage WHERE pool_key = 'anonymous'`
    expect(usage).toEqual({ n: BULK })
  }, 240_000)

  test('racing repeats: each of 150 identities sent four times at once over both nodes is stored once; every answer is its one receipt', async () => {
    const key = clientKey()
    const ts = (i: number) => new Date(Date.now() + offset - i * 1000).toISOString()
    const answers = await Promise.all(
      Array.from({ length: 150 * 4 }, async (_, i) => {
        const count = (i >> 2) + 1
        // The same identity with another ts and sig each time: a repeat is decided by identity.
        const body = { checkpoint: signCheckpoint(key, { session_id: 'race', count, ts: ts(i & 3) }), public_key_jwk: key.jwk }
        const response = await pair.fetch('/v1/witness/checkpoints', postJson(body, from(20_000 + i)))
        return { count, status: response.status, text: await response.text() }
      }),
    )
    expect(tally(answers.map((answer) => answer.status))).toEqual({ 201: 150, 200: 450 })
    for (let count = 1; count <= 150; count++) {
      const mine = answers.filter((answer) => answer.count === count)
      expect(mine.filter((answer) => answer.status === 201)).toHaveLength(1)
      expect(new Set(mine.map((answer) => answer.text)).size).toBe(1)
    }
    const [row] = await pair.database.sql`SELECT count(*)::int AS n FROM witness_checkpoints WHERE session_id = 'race'`
    expect(row).toEqual({ n: 150 })
  }, 240_000)

  test('racing forks: different hashes at one count sent at once are all stored, one row each', async () => {
    const key = clientKey()
    const ts = new Date(Date.now() + offset).toISOString()
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const body = submission(key, { session_id: 'forks', count: 1 + (i % 4), last_entry_hash: entryHash(i % 4, `fork-${i >> 2}`), ts })
        const response = await pair.fetch('/v1/witness/checkpoints', postJson(body, from(30_000 + i)))
        return { status: response.status, body: (await response.json()) as Record<string, string> }
      }),
    )
    expect(tally(answers.map((answer) => answer.status))).toEqual({ 201: 40 })
    const [row] = await pair.database.sql`SELECT count(*)::int AS n, count(DISTINCT (count, last_entry_hash))::int AS identities FROM witness_checkpoints WHERE session_id = 'forks'`
    expect(row).toEqual({ n: 40, identities: 40 })
    // Racing first submissions may both say false (witness.md 2.3); once a hash is stored, later ones say true.
    const forks = await pair.fetch(`/v1/witness/checkpoints?kid=${key.kid}&session_id=forks`).then((response) => response.json() as Promise<{ receipts: { fork: string }[] }>)
    expect(forks.receipts).toHaveLength(40)
    expect(forks.receipts.filter((receipt) => receipt.fork === 'true').length).toBeGreaterThan(0)
  }, 120_000)

  test('an Evidence key\'s quota is exact under a burst over both nodes: 1,000 stored, the rest 429 quota_exceeded, nothing else', async () => {
    const { key: apiKey } = await issueKey(postgresAccountStore(pair.database.sql), { plan: 'evidence_starter', now: new Date() })
    const client = clientKey()
    const ts = new Date(Date.now() + offset).toISOString()
    const answers = await Promise.all(
      Array.from({ length: 1100 }, async (_, i) => {
        const body = submission(client, { session_id: 'quota', count: i + 1, ts })
        const response = await pair.fetch('/v1/witness/checkpoints', postJson(body, { authorization: `Bearer ${apiKey}`, ...from(40_000 + i) }))
        return { status: response.status, body: (await response.json()) as Record<string, unknown> }
      }),
    )
    expect(tally(answers.map((answer) => answer.status))).toEqual({ 201: 1000, 429: 100 })
    expect(answers.find((answer) => answer.status === 429)!.body).toMatchObject({ error: 'quota_exceeded' })
    const [row] = await pair.database.sql`SELECT count(*)::int AS n FROM witness_checkpoints WHERE session_id = 'quota'`
    expect(row).toEqual({ n: 1000 })
  }, 240_000)
})

// The limits of test/nodes/limits.test.ts on WORKERS=2 over one SQLite file: a concurrent burst
// spread over both workers (each request on a new connection, the kernel picking the worker)
// admits exactly the limit — the free daily limit, credits, sandbox calls, instant keys per
// address and per agent_id, the witness's anonymous cap, the tool endpoint's anonymous allowance,
// per-key streams — and the same witness checkpoint sent twice at once is stored once. The
// service runs at midday (clock offset): no limit's day changes during the run.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Workers } from '../helpers/workers'
import { clockOffsetTo, SLOW_SETUP_MS } from '../helpers/process'
import { burst as burstThrough, statuses } from '../helpers/bursts'
import { closeStreams, endedStreams, openStreams } from '../helpers/open-streams'
import { clientKey, postJson, submission } from '../helpers/checkpoints'
import { issueKey } from '../../src/accounts/keys'
import { INSTANT_PER_ADDRESS_PER_DAY } from '../../src/accounts/offers'

const FREE_DAILY_LIMIT = 40
const WITNESS_CAP = 40
const MCP_LIMIT = 10
const offset = clockOffsetTo('12:00:00.000')
let workers: Workers

beforeAll(async () => {
  workers = await Workers.start({
    count: 2,
    clockOffsetMs: offset,
    env: { CLIENT_IP_HEADER: 'x-real-ip', FREE_DAILY_LIMIT: String(FREE_DAILY_LIMIT), WITNESS_ANON_DAILY_CAP: String(WITNESS_CAP), MCP_ANON_DAILY_LIMIT: String(MCP_LIMIT), LOG_LEVEL: 'warn' },
  })
}, SLOW_SETUP_MS + 60_000)
afterAll(async () => {
  await workers?.stop()
})

const keyed = (key: string, extra: Record<string, string> = {}) => ({ 'x-oracle-key': key, ...extra })
const from = (address: string) => ({ 'x-real-ip': address })
const one = <T>(sql: string, ...values: (string | number)[]) => workers.database().query(sql).get(...values) as T
/** `count` requests at once, each on its own connection. */
const burst = (count: number, request: (i: number) => [string, RequestInit?]) => burstThrough((path, init) => workers.fetch(path, init), count, request)

describe('limits across two workers on one SQLite file', () => {
  test('the requests reach both workers', async () => {
    expect((await workers.answering(30)).size).toBe(2)
  })

  test('free daily limit: three times the limit at once admits exactly the limit', async () => {
    const { key } = await issueKey(workers.accounts(), { plan: 'free', now: new Date() })
    const answers = await burst(3 * FREE_DAILY_LIMIT, () => ['/v5/status?mic=XNYS', { headers: keyed(key) }])
    expect(statuses(answers)).toEqual({ 200: FREE_DAILY_LIMIT, 402: 2 * FREE_DAILY_LIMIT })
    expect(answers.filter((answer) => answer.status === 402).every((answer) => answer.body.error === 'FREE_TIER_EXHAUSTED')).toBe(true)
  }, 30_000)

  test('credits: a free key with 15 credits gets the limit and exactly 15 more; 15 debits in the ledger', async () => {
    const { key, account } = await issueKey(workers.accounts(), { plan: 'free', now: new Date(), creditBalance: 15 })
    const answers = await burst(3 * FREE_DAILY_LIMIT, () => ['/v5/status?mic=XNYS', { headers: keyed(key) }])
    expect(statuses(answers)).toEqual({ 200: FREE_DAILY_LIMIT + 15, 402: 2 * FREE_DAILY_LIMIT - 15 })
    expect(one('SELECT credit_balance FROM api_keys WHERE id = ?', account.id)).toEqual({ credit_balance: 0 })
    expect(one("SELECT count(*) AS n, sum(delta) AS total FROM credit_ledger WHERE account_id = ? AND kind = 'debit'", account.id)).toEqual({ n: 15, total: -15 })
  }, 30_000)

  test('sandbox calls: a key with 30 calls left gets exactly 30 of 80', async () => {
    const { key, account } = await issueKey(workers.accounts(), { plan: 'sandbox', now: new Date(), callsRemaining: 30, expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString() })
    const answers = await burst(80, () => ['/v5/status?mic=XNYS', { headers: keyed(key) }])
    expect(statuses(answers)).toEqual({ 200: 30, 402: 50 })
    expect(one('SELECT calls_remaining FROM api_keys WHERE id = ?', account.id)).toEqual({ calls_remaining: 0 })
  }, 30_000)

  test('instant keys: 10 per address per day, 1 per agent_id', async () => {
    const perAddress = await burst(30, (i) => ['/v5/keys/instant', postJson({ agent_id: `burst-${i}` }, from('10.1.0.1'))])
    expect(statuses(perAddress)).toEqual({ 200: INSTANT_PER_ADDRESS_PER_DAY, 429: 30 - INSTANT_PER_ADDRESS_PER_DAY })
    const perAgent = await burst(20, (i) => ['/v5/keys/instant', postJson({ agent_id: 'one-agent' }, from(`10.1.1.${i + 1}`))])
    expect(statuses(perAgent)).toEqual({ 200: 20 })
    expect(perAgent.filter((answer) => /^svc_free_[0-9a-f]{64}$/.test(answer.body.api_key)).length).toBe(1)
    expect(one("SELECT count(*) AS n FROM api_keys WHERE agent_id = 'one-agent'")).toEqual({ n: 1 })
  }, 30_000)

  test('the same witness checkpoint sent twice at once: one 201, one 200, one receipt', async () => {
    const client = clientKey()
    const ts = new Date(Date.now() + offset).toISOString()
    for (let count = 1; count <= 10; count++) {
      const body = submission(client, { session_id: 'both-workers', count, ts })
      const answers = await burst(2, (i) => ['/v1/witness/checkpoints', postJson(body, from(`10.3.0.${count * 2 + i}`))])
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201])
      expect(answers[0]!.body).toEqual(answers[1]!.body)
    }
    expect(one("SELECT count(*) AS n FROM witness_checkpoints WHERE session_id = 'both-workers'")).toEqual({ n: 10 })
  }, 30_000)

  test('witness anonymous cap: new anonymous rows stop exactly at the daily cap', async () => {
    // The test above stored 10 anonymous rows today.
    const client = clientKey()
    const ts = new Date(Date.now() + offset).toISOString()
    const answers = await burst(60, (i) => ['/v1/witness/checkpoints', postJson(submission(client, { session_id: 'cap', count: i + 1, ts }), from(`10.4.${i >> 8}.${(i % 250) + 1}`))])
    expect(statuses(answers)).toEqual({ 201: WITNESS_CAP - 10, 503: 60 - (WITNESS_CAP - 10) })
  }, 30_000)

  test('tool endpoint: the anonymous allowance of one client is exact over both workers', async () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_market_status', arguments: { mic: 'XNYS' } } }
    const answers = await burst(30, () => ['/mcp', postJson(call, { accept: 'application/json, text/event-stream', ...from('10.5.0.1') })])
    expect(answers.every((answer) => answer.status === 200)).toBe(true)
    expect(answers.filter((answer) => answer.body.result?.isError !== true).length).toBe(MCP_LIMIT)
  }, 30_000)

  test('streams: a one-stream key opened six times at once over both workers keeps exactly one; the others end replaced', async () => {
    const { key } = await issueKey(workers.accounts(), { plan: 'free', now: new Date() })
    const streams = await openStreams(6, () => workers.fetch('/v5/stream?mic=XNYS', { headers: keyed(key, { accept: 'text/event-stream' }) }))
    // A stream replaced through the other worker ends at that worker's next look (every second).
    const ended = await endedStreams(streams, 5)
    expect(ended.length).toBe(5)
    expect(ended.every((stream) => stream.text.includes('event: replaced'))).toBe(true)
    expect(one('SELECT count(*) AS n FROM open_streams')).toEqual({ n: 1 })
    await closeStreams(streams)
  }, 30_000)
})

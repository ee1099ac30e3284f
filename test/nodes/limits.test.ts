// Every limit is exact across two real nodes on one PostgreSQL database: a concurrent burst
// spread round-robin over both admits exactly the limit (free daily limit, credits, sandbox calls,
// instant keys per address and per agent_id, e-mailed and sandbox keys, the witness's anonymous
// cap, the tool endpoint's anonymous allowance, per-key streams), the same witness checkpoint
// sent to both at once is stored once (one 201, one 200, one receipt), and every payment proof is
// spent once. Client addresses come from CLIENT_IP_HEADER, so a test can speak for many clients.
// Both nodes run at midday (clock offset): no limit's day changes during the run.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Address, Hex } from 'viem'
import { Pair, keyed } from '../helpers/two-nodes'
import { clockOffsetTo, SLOW_SETUP_MS } from '../helpers/process'
import { burst as burstThrough, statuses } from '../helpers/bursts'
import { closeStreams, endedStreams, openStreams } from '../helpers/open-streams'
import { startClusterFirst } from '../helpers/postgres'
import { startSmtp, SMTP_PASSWORD, SMTP_USER, type TestSmtp } from '../helpers/smtp'
import { startChain, type LocalChain } from '../helpers/chain'
import { clientKey, postJson, submission } from '../helpers/checkpoints'
import { issueKey } from '../../src/accounts/keys'
import { postgresAccountStore } from '../../src/accounts/store-postgres'
import { INSTANT_PER_ADDRESS_PER_DAY } from '../../src/accounts/offers'

startClusterFirst()

const FREE_DAILY_LIMIT = 40
const WITNESS_CAP = 40
const MCP_LIMIT = 10
const offset = clockOffsetTo('12:00:00.000')
let pair: Pair
let smtp: TestSmtp
let chain: LocalChain
let token: Address
let payTo: Address

beforeAll(async () => {
  ;[smtp, chain] = await Promise.all([startSmtp(), startChain()])
  token = await chain.deployToken()
  await chain.mint(token, chain.account(1).address, '100')
  payTo = chain.account(5).address
  pair = await Pair.start({
    clockOffsetMs: offset,
    env: {
      CLIENT_IP_HEADER: 'x-real-ip',
      FREE_DAILY_LIMIT: String(FREE_DAILY_LIMIT),
      WITNESS_ANON_DAILY_CAP: String(WITNESS_CAP),
      MCP_ANON_DAILY_LIMIT: String(MCP_LIMIT),
      SMTP_URL: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'keys@oracle.test',
      X402_PAY_TO: payTo,
      X402_NETWORK: chain.network,
      X402_ASSET: token,
      CHAIN_RPC_URL: chain.rpcUrl,
      // The transfers are mined on the host's clock; the nodes run at midday.
      X402_MAX_TX_AGE_SECONDS: '86400',
      HALT_FEED_URL: 'off',
    },
  })
}, SLOW_SETUP_MS)
afterAll(async () => {
  await pair?.stop()
  await smtp?.close()
  await chain?.stop()
})

const accounts = () => postgresAccountStore(pair.database.sql)
const from = (address: string) => ({ 'x-real-ip': address })
/** `count` requests at once, spread round-robin over the two nodes. */
const burst = (count: number, request: (i: number) => [string, RequestInit?]) => burstThrough((path, init) => pair.fetch(path, init), count, request)

describe('limits across two nodes', () => {
  test('free daily limit: three times the limit at once admits exactly the limit', async () => {
    const { key } = await issueKey(accounts(), { plan: 'free', now: new Date() })
    const answers = await burst(3 * FREE_DAILY_LIMIT, () => ['/v5/status?mic=XNYS', { headers: keyed(key) }])
    expect(statuses(answers)).toEqual({ 200: FREE_DAILY_LIMIT, 402: 2 * FREE_DAILY_LIMIT })
    expect(answers.filter((answer) => answer.status === 402).every((answer) => answer.body.error === 'FREE_TIER_EXHAUSTED')).toBe(true)
  })

  test('credits: a free key with 15 credits gets the limit and exactly 15 more; 15 debits in the ledger', async () => {
    const { key, account } = await issueKey(accounts(), { plan: 'free', now: new Date(), creditBalance: 15 })
    const answers = await burst(3 * FREE_DAILY_LIMIT, () => ['/v5/status?mic=XNYS', { headers: keyed(key) }])
    expect(statuses(answers)).toEqual({ 200: FREE_DAILY_LIMIT + 15, 402: 2 * FREE_DAILY_LIMIT - 15 })
    const [row] = await pair.database.sql`SELECT credit_balance FROM api_keys WHERE id = ${account.id}`
    expect(row).toEqual({ credit_balance: 0 })
    const [debits] = await pair.database.sql`SELECT count(*)::int AS n, sum(delta)::int AS total FROM credit_ledger WHERE account_id = ${account.id} AND kind = 'debit'`
    expect(debits).toEqual({ n: 15, total: -15 })
  })

  test('sandbox calls: a key with 30 calls left gets exactly 30 of 80', async () => {
    const { key, account } = await issueKey(accounts(), { plan: 'sandbox', now: new Date(), callsRemaining: 30, expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString() })
    const answers = await burst(80, () => ['/v5/status?mic=XNYS', { headers: keyed(key) }])
    expect(statuses(answers)).toEqual({ 200: 30, 402: 50 })
    const [row] = await pair.database.sql`SELECT calls_remaining FROM api_keys WHERE id = ${account.id}`
    expect(row).toEqual({ calls_remaining: 0 })
  })

  test('instant keys: 10 per address per day, 1 per agent_id', async () => {
    const perAddress = await burst(30, (i) => ['/v5/keys/instant', postJson({ agent_id: `burst-${i}` }, from('10.1.0.1'))])
    expect(statuses(perAddress)).toEqual({ 200: INSTANT_PER_ADDRESS_PER_DAY, 429: 30 - INSTANT_PER_ADDRESS_PER_DAY })
    const perAgent = await burst(20, (i) => ['/v5/keys/instant', postJson({ agent_id: 'one-agent' }, from(`10.1.1.${i + 1}`))])
    expect(statuses(perAgent)).toEqual({ 200: 20 })
    expect(perAgent.filter((answer) => /^svc_free_[0-9a-f]{64}$/.test(answer.body.api_key)).length).toBe(1)
    const [keys] = await pair.database.sql`SELECT count(*)::int AS n FROM api_keys WHERE agent_id = 'one-agent'`
    expect(keys).toEqual({ n: 1 })
  })

  test('e-mailed keys: 3 per address and 3 per recipient in 24 h; sandbox keys 1 per address; each mail sent once', async () => {
    const before = smtp.received.length
    const perAddress = await burst(12, (i) => ['/v5/keys/request', postJson({ email: `reader-${i}@example.com` }, from('10.2.0.1'))])
    expect(statuses(perAddress)).toEqual({ 200: 3, 429: 9 })
    const perRecipient = await burst(12, (i) => ['/v5/keys/request', postJson({ email: 'same-reader@example.com' }, from(`10.2.1.${i + 1}`))])
    expect(statuses(perRecipient)).toEqual({ 200: 3, 429: 9 })
    const sandbox = await burst(10, (i) => ['/v5/sandbox', postJson({ email: `tester-${i}@example.com` }, from('10.2.2.1'))])
    expect(statuses(sandbox)).toEqual({ 200: 1, 429: 9 })
    const mails = await smtp.waitFor(before + 7, 20_000)
    // A few seconds more: a second send of any of them would arrive meanwhile.
    await Bun.sleep(6000)
    const sent = smtp.received.slice(before)
    expect(sent).toHaveLength(7)
    expect(mails.length).toBe(before + 7)
    expect(new Set(sent.map((mail) => mail.text)).size).toBe(7)
    expect(sent.filter((mail) => mail.to.includes('same-reader@example.com'))).toHaveLength(3)
  }, 60_000)

  test('the same witness checkpoint sent to both nodes at once: one 201, one 200, one receipt', async () => {
    const client = clientKey()
    const ts = new Date(Date.now() + offset).toISOString()
    for (let count = 1; count <= 10; count++) {
      const body = submission(client, { session_id: 'both-nodes', count, ts })
      const answers = await Promise.all(pair.nodes.map(async (node, i) => {
        const response = await fetch(`${node.base}/v1/witness/checkpoints`, postJson(body, from(`10.3.0.${count * 2 + i}`)))
        return { status: response.status, text: await response.text() }
      }))
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201])
      expect(answers[0]!.text).toBe(answers[1]!.text)
    }
    const [rows] = await pair.database.sql`SELECT count(*)::int AS n FROM witness_checkpoints WHERE session_id = 'both-nodes'`
    expect(rows).toEqual({ n: 10 })
  })

  test('witness anonymous cap: new anonymous rows stop exactly at the daily cap', async () => {
    // The test above stored 10 anonymous rows today.
    const client = clientKey()
    const ts = new Date(Date.now() + offset).toISOString()
    const answers = await burst(60, (i) => ['/v1/witness/checkpoints', postJson(submission(client, { session_id: 'cap', count: i + 1, ts }), from(`10.4.${i >> 8}.${(i % 250) + 1}`))])
    expect(statuses(answers)).toEqual({ 201: WITNESS_CAP - 10, 503: 60 - (WITNESS_CAP - 10) })
  })

  test('tool endpoint: the anonymous allowance of one client is exact over both nodes', async () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_market_status', arguments: { mic: 'XNYS' } } }
    const answers = await burst(30, () => ['/mcp', postJson(call, { accept: 'application/json, text/event-stream', ...from('10.5.0.1') })])
    expect(answers.every((answer) => answer.status === 200)).toBe(true)
    expect(answers.filter((answer) => answer.body.result?.isError !== true).length).toBe(MCP_LIMIT)
  })

  test('streams: a one-stream key opened six times at once over both nodes keeps exactly one; the others end replaced', async () => {
    const { key } = await issueKey(accounts(), { plan: 'free', now: new Date() })
    const streams = await openStreams(6, () => pair.fetch('/v5/stream?mic=XNYS', { headers: keyed(key, { accept: 'text/event-stream' }) }))
    // Replacements on another node arrive by notification: give them a moment.
    const ended = await endedStreams(streams, 5)
    expect(ended.length).toBe(5)
    expect(ended.every((stream) => stream.text.includes('event: replaced'))).toBe(true)
    const [open] = await pair.database.sql`SELECT count(*)::int AS n FROM open_streams`
    expect(open).toEqual({ n: 1 })
    await closeStreams(streams)
  }, 30_000)

  test('payments: a transfer sent to both nodes at once buys credits once; an x402 proof pays for one receipt', async () => {
    const [a, b] = await Promise.all([issueKey(accounts(), { plan: 'free', now: new Date() }), issueKey(accounts(), { plan: 'free', now: new Date() })])
    const proof = (hash: Hex, memo: string) => Buffer.from(JSON.stringify({ txHash: hash, network: chain.network, amount: '0.001', paymentAddress: payTo, memo })).toString('base64')
    for (let round = 0; round < 3; round++) {
      const hash = await chain.transfer(token, 1, payTo, '0.09')
      const answers = await Promise.all([a.key, b.key, a.key, b.key].map(async (key, i) => {
        const response = await fetch(`${pair.nodes[i % 2]!.base}/v5/credits/purchase`, { method: 'POST', headers: keyed(key, { 'x-payment': proof(hash, 'credits') }) })
        return { status: response.status, body: (await response.json()) as Record<string, any> }
      }))
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 402, 402, 402])
      expect(answers.filter((answer) => answer.status === 402).every((answer) => answer.body.error === 'PAYMENT_REPLAYED')).toBe(true)
    }
    const [balances] = await pair.database.sql`SELECT sum(credit_balance)::int AS total FROM api_keys WHERE id IN (${a.account.id}, ${b.account.id})`
    expect(balances).toEqual({ total: 300 })
    for (let round = 0; round < 3; round++) {
      const hash = await chain.transfer(token, 1, payTo, '0.001')
      const answers = await Promise.all(pair.nodes.map(async (node) => {
        const response = await fetch(`${node.base}/v5/status?mic=XNYS`, { headers: { 'x-payment': proof(hash, 'status') } })
        return response.status
      }))
      expect(answers.sort()).toEqual([200, 402])
    }
    const [proofs] = await pair.database.sql`SELECT count(*)::int AS n FROM payment_proofs`
    expect(proofs).toEqual({ n: 6 })
  }, 60_000)
})

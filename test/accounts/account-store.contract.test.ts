// The key store, OAuth tokens and the account writes that join other domains' units of work, on
// both backends: the same rows and answers, prefixes matched literally, a status change that
// revokes tokens, and writes that commit with their unit of work or not at all.
import { expect, test } from 'bun:test'
import { issueKey } from '../../src/accounts/keys'
import { sqliteAccountStore, type AccountStore } from '../../src/accounts/store'
import { postgresAccountStore } from '../../src/accounts/store-postgres'
import { sqliteTokenStore, newToken, MAX_TOKENS_PER_KEY, type TokenStore } from '../../src/accounts/tokens'
import { postgresTokenStore } from '../../src/accounts/tokens-postgres'
import { sqliteAccountWrites, type AccountWrites } from '../../src/accounts/account-writes'
import { postgresAccountWrites } from '../../src/accounts/account-writes-postgres'
import { sqliteTransactor } from '../../src/store/sqlite-transaction'
import { postgresTransactor } from '../../src/store/postgres-transaction'
import type { Transactor } from '../../src/store/transaction'
import { forEachBackend } from '../helpers/backends'

const NOW = new Date('2026-03-10T15:00:00.000Z')

forEachBackend('account store', (fresh) => {
  const open = async () => {
    const backend = await fresh()
    return {
      accounts: backend.pick<AccountStore>({ sqlite: sqliteAccountStore, postgres: postgresAccountStore }),
      tokens: backend.pick<TokenStore>({ sqlite: sqliteTokenStore, postgres: postgresTokenStore }),
      writes: backend.pick<AccountWrites>({ sqlite: sqliteAccountWrites, postgres: postgresAccountWrites }),
      transactor: backend.pick<Transactor>({ sqlite: sqliteTransactor, postgres: postgresTransactor }),
    }
  }

  test('a key is stored hashed and found by its hash, with every column as issued', async () => {
    const { accounts } = await open()
    const { key, account } = await issueKey(accounts, { plan: 'free', now: NOW, agentId: 'agent-1', email: 'a@example.com', creditBalance: 3, callsRemaining: 7, expiresAt: '2026-04-01T00:00:00.000Z' })
    expect(account).toEqual({
      id: account.id,
      key_hash: account.key_hash,
      key_prefix: key.slice(0, 'svc_free_'.length + 8),
      class: 'free',
      plan: 'free',
      status: 'active',
      created_at: NOW.toISOString(),
      expires_at: '2026-04-01T00:00:00.000Z',
      calls_remaining: 7,
      agent_id: 'agent-1',
      email: 'a@example.com',
      credit_balance: 3,
    })
    expect(account.key_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(account)).not.toContain(key.slice(12))
    expect(await accounts.findByHash(account.key_hash)).toEqual(account)
    expect(await accounts.findByHashFresh(account.key_hash)).toEqual(account)
    expect(await accounts.findByHash('0'.repeat(64))).toBeNull()
  })

  test('listing is in issue order; a prefix matches literally (% and _ are not wildcards)', async () => {
    const { accounts } = await open()
    const made = []
    for (const plan of ['pro', 'free', 'builder'] as const) made.push((await issueKey(accounts, { plan, now: NOW })).account)
    expect((await accounts.list()).map((row) => row.id)).toEqual(made.map((row) => row.id))
    const [first] = made
    expect((await accounts.findByPrefix(first!.key_prefix)).map((row) => row.id)).toEqual([first!.id])
    expect(await accounts.findByPrefix('svc_%')).toEqual([])
    expect(await accounts.findByPrefix('svc_live_' + '_'.repeat(8))).toEqual([])
    expect((await accounts.findByPrefix('svc_')).length).toBe(3)
  })

  test("a status other than active revokes the key's tokens; reactivation brings none back", async () => {
    const { accounts, tokens } = await open()
    const { account } = await issueKey(accounts, { plan: 'pro', now: NOW })
    const issued = newToken(account.id, NOW.getTime())
    await tokens.insert(issued.row)
    expect((await tokens.find(issued.row.tokenHash))!.account.id).toBe(account.id)
    await accounts.setStatus(account.id, 'suspended')
    expect((await accounts.findByHash(account.key_hash))!.status).toBe('suspended')
    expect(await tokens.find(issued.row.tokenHash)).toBeNull()
    await accounts.setStatus(account.id, 'active')
    expect(await tokens.find(issued.row.tokenHash)).toBeNull()
  })

  test('tokens: found with their account and expiry; expired ones pruned on insert; at most the cap per key', async () => {
    const { accounts, tokens } = await open()
    const { account } = await issueKey(accounts, { plan: 'pro', now: NOW })
    const at = NOW.getTime()
    const first = newToken(account.id, at)
    await tokens.insert(first.row)
    const found = await tokens.find(first.row.tokenHash)
    expect(found).toEqual({ account: (await accounts.findByHash(account.key_hash))!, scope: 'mcp', expiresAt: first.row.expiresAt })
    // An insert after the first token's expiry removes it.
    const later = newToken(account.id, first.row.expiresAt)
    await tokens.insert(later.row)
    expect(await tokens.find(first.row.tokenHash)).toBeNull()
    // Past the cap the oldest go.
    const made = [later]
    for (let i = 1; i <= MAX_TOKENS_PER_KEY; i++) {
      const next = newToken(account.id, first.row.expiresAt + i)
      await tokens.insert(next.row)
      made.push(next)
    }
    expect(await tokens.find(made[0]!.row.tokenHash)).toBeNull()
    expect(await tokens.find(made.at(-1)!.row.tokenHash)).not.toBeNull()
    expect(await tokens.revokeAccount(account.id)).toBe(MAX_TOKENS_PER_KEY)
  })

  test('account writes join a unit of work: all of it commits, or none', async () => {
    const { accounts, writes, transactor } = await open()
    const issued = await transactor.run(function* () {
      const made = yield* writes.issueKey({ plan: 'builder', keyClass: 'paid', email: 'b@example.com', creditBalance: 0, now: NOW.getTime(), expiresAt: '2026-05-01T00:00:00.000Z' })
      yield* writes.setPlan(made.accountId, 'pro')
      return made
    })
    const [row] = await accounts.findByPrefix(issued.key.slice(0, 17))
    expect(row).toMatchObject({ id: issued.accountId, plan: 'pro', class: 'paid', email: 'b@example.com', expires_at: '2026-05-01T00:00:00.000Z', credit_balance: 0, status: 'active' })
    expect(await transactor.run(() => writes.grantCredits(issued.accountId, 250))).toBe(250)
    expect(await transactor.run(() => writes.grantCredits(issued.accountId, 5))).toBe(255)
    await expect(
      transactor.run(function* () {
        yield* writes.grantCredits(issued.accountId, 1000)
        yield* writes.issueKey({ plan: 'free', keyClass: 'credit', email: null, creditBalance: 10, now: NOW.getTime() })
        throw new Error('the payment was not spent')
      }),
    ).rejects.toThrow('the payment was not spent')
    expect((await accounts.list()).length).toBe(1)
    expect((await accounts.findByHash(row!.key_hash))!.credit_balance).toBe(255)
    await transactor.run(() => writes.setStatus(issued.accountId, 'cancelled'))
    expect((await accounts.findByHash(row!.key_hash))!.status).toBe('cancelled')
  })
})

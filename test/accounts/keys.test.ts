import { describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { readFileSync } from 'node:fs'
import { issueKey } from '../../src/accounts/keys'
import { authPlugin } from '../../src/http/auth'
import { requireAccount } from '../../src/accounts/key-check'
import { httpPlugin } from '../../src/http/plugin'
import { runKeysCommand } from '../../src/cli/keys'
import { makeTestApp, TEST_ADMIN_KEY } from '../helpers/app'

function guardedApp() {
  const harness = makeTestApp({ fileDatabase: true })
  const app = new Elysia()
    .use(httpPlugin({ log: harness.log, clock: harness.clock, routes: () => [] }))
    .use(authPlugin(harness.deps, (key) => requireAccount(harness.deps, key)))
    .get('/probe', ({ account }) => ({ plan: account.plan }), { apiKey: true })
    .get('/operator', () => ({ ok: true }), { admin: true })
  const call = async (path: string, headers: Record<string, string> = {}) => {
    const response = await app.handle(new Request(`http://localhost${path}`, { headers }))
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  return { ...harness, call }
}

describe('API key guard', () => {
  test('created key → 200; missing → 401; unknown → 403; suspended → 402', async () => {
    const { call, deps } = guardedApp()
    const { key, account } = await issueKey(deps.accounts, { plan: 'pro', now: new Date(deps.clock.now()) })
    expect(key).toMatch(/^svc_live_[0-9a-f]{64}$/)
    expect(await call('/probe', { 'x-oracle-key': key })).toEqual({ status: 200, body: { plan: 'pro' } })
    expect((await call('/probe')).status).toBe(401)
    expect((await call('/probe', { 'x-oracle-key': 'svc_live_' + '0'.repeat(64) })).status).toBe(403)
    expect((await call('/probe', { 'x-oracle-key': 'not-a-key' })).status).toBe(403)
    await deps.accounts.setStatus(account.id, 'suspended')
    const suspended = await call('/probe', { 'x-oracle-key': key })
    expect(suspended.status).toBe(402)
    expect(suspended.body.error).toBe('ACCOUNT_INACTIVE')
    await deps.accounts.setStatus(account.id, 'cancelled')
    expect((await call('/probe', { 'x-oracle-key': key })).status).toBe(402)
  })

  test('an expired key is 402', async () => {
    const { call, deps, clock } = guardedApp()
    const { key } = await issueKey(deps.accounts, { plan: 'sandbox', now: new Date(clock.now()), expiresAt: new Date(clock.now() + 1000).toISOString() })
    expect((await call('/probe', { 'x-oracle-key': key })).status).toBe(200)
    clock.advance(1000)
    expect((await call('/probe', { 'x-oracle-key': key })).status).toBe(402)
  })

  test('keys get the prefix of their class', async () => {
    const { deps } = guardedApp()
    const now = new Date(deps.clock.now())
    expect((await issueKey(deps.accounts, { plan: 'free', now })).key).toStartWith('svc_free_')
    expect((await issueKey(deps.accounts, { plan: 'sandbox', now })).key).toStartWith('sb_')
    expect((await issueKey(deps.accounts, { plan: 'free', keyClass: 'credit', now })).key).toStartWith('svc_crd_')
  })

  test('the raw key is not in the database file, only its hash', async () => {
    const { deps, db, config } = guardedApp()
    const { key } = await issueKey(deps.accounts, { plan: 'builder', now: new Date(deps.clock.now()) })
    db.run('PRAGMA wal_checkpoint(TRUNCATE)')
    const bytes = readFileSync(config.databasePath).toString('latin1')
    expect(bytes).not.toContain(key.slice(9))
    expect(bytes).not.toContain(key.slice(20, 50))
    expect(bytes).toContain(new Bun.CryptoHasher('sha256').update(key).digest('hex'))
  })

  test('operator guard: missing 401, wrong 403, right 200', async () => {
    const { call } = guardedApp()
    expect((await call('/operator')).status).toBe(401)
    expect((await call('/operator', { 'x-oracle-key': 'wrong-admin-key-0000000000' })).status).toBe(403)
    expect((await call('/operator', { 'x-oracle-key': TEST_ADMIN_KEY })).status).toBe(200)
  })
})

describe('keys command', () => {
  test('create prints the key once, list shows prefixes only, suspend takes effect', async () => {
    const { deps, call } = guardedApp()
    const lines: string[] = []
    const out = (line: string) => lines.push(line)
    expect(await runKeysCommand(['create', '--plan', 'evidence'], deps.accounts, new Date(deps.clock.now()), out)).toBe(0)
    const key = lines[0]!
    expect(key).toMatch(/^svc_live_[0-9a-f]{64}$/)
    lines.length = 0
    expect(await runKeysCommand(['list'], deps.accounts, new Date(), out)).toBe(0)
    expect(lines.join('\n')).toContain(key.slice(0, 17))
    expect(lines.join('\n')).not.toContain(key.slice(0, 30))
    expect(await runKeysCommand(['suspend', key.slice(0, 17)], deps.accounts, new Date(), out)).toBe(0)
    expect((await call('/probe', { 'x-oracle-key': key })).status).toBe(402)
    // `resume` (the issue's name; `activate` is the same) makes the key work again.
    lines.length = 0
    expect(await runKeysCommand(['resume', key.slice(0, 17)], deps.accounts, new Date(), out)).toBe(0)
    expect(lines).toEqual([`${key.slice(0, 17)}… is now active`])
    expect((await call('/probe', { 'x-oracle-key': key })).status).toBe(200)
    expect(await runKeysCommand(['cancel', key.slice(0, 17)], deps.accounts, new Date(), out)).toBe(0)
    expect(await runKeysCommand(['activate', key.slice(0, 17)], deps.accounts, new Date(), out)).toBe(0)
    expect(await runKeysCommand(['create', '--plan', 'platinum'], deps.accounts, new Date(), out)).toBe(2)
    expect(await runKeysCommand(['suspend', 'svc_live_ffffffff'], deps.accounts, new Date(), out)).toBe(1)
  })
})

describe('keys resume and keys activate (issue 24 item 19)', () => {
  test('one verb, resume, in `openbell --help` and in the keys usage; activate is named only as its alias and does the same', async () => {
    const { USAGE } = await import('../../src/cli/usage')
    const lines: string[] = []
    const harness = makeTestApp()
    expect(await runKeysCommand([], harness.deps.accounts, new Date(), (line) => lines.push(line))).toBe(2)
    for (const text of [USAGE, lines.join('\n')]) {
      expect(text).toContain('suspend|resume|cancel')
      expect(text).toContain('activate is another name for resume')
      expect(text).not.toMatch(/\|activate\b|\bactivate\|/)
    }
    const { key } = await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })
    const out: string[] = []
    for (const [verb, status] of [['suspend', 'suspended'], ['activate', 'active'], ['cancel', 'cancelled'], ['resume', 'active']] as const) {
      expect(await runKeysCommand([verb, key.slice(0, 17)], harness.deps.accounts, new Date(), (line) => out.push(line))).toBe(0)
      expect(out.pop()).toBe(`${key.slice(0, 17)}… is now ${status}`)
    }
  })
})


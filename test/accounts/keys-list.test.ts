import { expect, test } from 'bun:test'
import { issueKey } from '../../src/accounts/keys'
import { sqliteUsageStore } from '../../src/accounts/usage-store'
import { runKeysCommand } from '../../src/cli/keys'
import { makeTestApp } from '../helpers/app'

test('keys list shows class, plan, status and the requests counted today', async () => {
  const harness = makeTestApp({ now: '2026-03-10T15:00:00.000Z' })
  const now = new Date(harness.clock.now())
  const busy = await issueKey(harness.deps.accounts, { plan: 'free', now })
  const idle = await issueKey(harness.deps.accounts, { plan: 'builder', now })
  for (let i = 0; i < 3; i++) expect((await harness.request('/v5/status', { headers: { 'x-oracle-key': busy.key } })).status).toBe(200)
  // Yesterday's calls are not today's.
  harness.db.query('INSERT INTO key_usage (account_id, day, requests) VALUES (?, ?, ?)').run(idle.account.id, '2026-03-09', 40)
  await harness.deps.meter.flush()
  const lines: string[] = []
  expect(await runKeysCommand(['list'], harness.deps.accounts, now, (line) => lines.push(line), sqliteUsageStore(harness.db))).toBe(0)
  expect(lines[0]!.split('\t')).toEqual(['prefix', 'class', 'plan', 'status', 'created_at', 'expires_at', 'today'])
  const row = (prefix: string) => lines.find((line) => line.startsWith(prefix))!.split('\t')
  expect(row(busy.account.key_prefix)).toEqual([`${busy.account.key_prefix}…`, 'free', 'free', 'active', now.toISOString(), '-', '3'])
  expect(row(idle.account.key_prefix).at(-1)).toBe('0')
  expect(lines.join('\n')).not.toContain(busy.key)
})

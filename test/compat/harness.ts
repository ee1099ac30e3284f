// The compatibility suite's service: the app (test/helpers/app.ts) listening on loopback, with
// a history a real installation can have. The one file of test/compat/ that builds on the
// service's code (the verifiers and the tests talk to it over HTTP only).
//
// Three sealed days, one of each kind a database holds: 2026-03-09 sealed as before the
// transparency log (no log size anywhere), 2026-03-10 sealed as the release between the log and
// migration 13 sealed it (log_tree_size among the members of `receipt`), 2026-03-11 sealed by
// the sealer as it is now (which first signs 2026-03-10 again). The clock then stands at
// Thursday 2026-03-12 15:00 UTC, every venue of the tests in session, and the log has published
// a checkpoint. The C2SP witness follows transparency-dev/witness's test log ("monkeys").
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { issueKey } from '../../src/accounts/keys'
import { sealedDigest } from '../../src/audit/digest'
import { makeTestApp, tempDir, TEST_ADMIN_KEY, type TestApp } from '../helpers/app'
import { sealWithLogSizeInReceipt } from '../helpers/legacy-digest'

export const SEALED_DAYS = { beforeLog: '2026-03-09', withLogSizeInReceipt: '2026-03-10', now: '2026-03-11' } as const
const FIXTURES = join(import.meta.dir, '../fixtures/transparency')

export interface CompatService {
  base: string
  /** The service's clock (ms): receipts are fresh at this instant. */
  now(): number
  /** A pro key. */
  apiKey: string
  adminKey: string
  stop(): void
}

async function seal(t: TestApp, date: string, howWithLogSize: boolean): Promise<void> {
  // Two receipts a day from the first, so the log held 4 at the end of the second day.
  if (howWithLogSize) return sealWithLogSizeInReceipt(t, date, 4)
  await t.deps.audit.flush()
  const tree = await t.deps.auditTrail.trees.tree(date)
  await t.deps.audit.store.insertDigest(date, tree.size, [], (previous) => sealedDigest(t.deps.signer, t.config.issuer, date, tree, ['XNYS'], previous, new Date(t.clock.now()).toISOString()))
}

export async function startCompatService(): Promise<CompatService> {
  const logs = join(tempDir('openbell-test-compat-'), 'logs.txt')
  const vectors = JSON.parse(await Bun.file(join(FIXTURES, 'note-vectors.json')).text()).witness
  writeFileSync(logs, `logs/v0\nvkey ${vectors.log_vkey}\nqpd 86400\ncontact tests\n`)
  const t = makeTestApp({ now: '2026-03-09T15:00:00.000Z', env: { WITNESS_LOGS_FILE: logs } })
  const { key } = await issueKey(t.deps.accounts, { plan: 'pro', now: new Date(t.clock.now()) })
  await t.deps.auditTrail.sealer.startedOn()
  const status = () => t.request('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })
  for (const [day, kind] of [[SEALED_DAYS.beforeLog, false], [SEALED_DAYS.withLogSizeInReceipt, true]] as const) {
    t.clock.set(`${day}T15:00:00.000Z`)
    await status()
    await status()
    t.clock.set(`${day.slice(0, 8)}${String(Number(day.slice(8)) + 1).padStart(2, '0')}T00:00:20.000Z`)
    await seal(t, day, kind)
  }
  t.clock.set(`${SEALED_DAYS.now}T15:00:00.000Z`)
  await status()
  t.clock.set('2026-03-12T00:00:20.000Z')
  const sealed = await t.deps.auditTrail.sealer.tick()
  if (JSON.stringify(sealed) !== JSON.stringify([SEALED_DAYS.now])) throw new Error(`the sealer sealed ${JSON.stringify(sealed)}`)
  t.clock.set('2026-03-12T15:00:00.000Z')
  await t.deps.transparency.integrator.tick()
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => t.app.handle(request) })
  return { base: `http://127.0.0.1:${server.port}`, now: () => t.clock.now(), apiKey: key, adminKey: TEST_ADMIN_KEY, stop: () => void server.stop(true) }
}

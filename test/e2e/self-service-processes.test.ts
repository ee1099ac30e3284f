// Two service processes over one database: the per-address allowance and one-key-per-agent_id hold
// across processes, because both are decided inside SQLite (immediate transactions, a UNIQUE index).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { tempDir } from '../helpers/app'
import { clockOffsetTo, SLOW_SETUP_MS, startService, type RunningService } from '../helpers/process'
import { INSTANT_PER_ADDRESS_PER_DAY } from '../../src/accounts/offers'

describe('self-service keys across two processes', () => {
  let services: RunningService[] = []
  beforeAll(async () => {
    const dataDir = tempDir()
    // The allowance is per UTC day: both processes run on one clock set to midday, so a run that
    // starts just before midnight does not see the day change midway.
    const clock = { clockOffsetMs: clockOffsetTo('12:00:00.000') }
    // One after the other: the first start makes the database and the signing key. Several
    // processes on one DATA_DIR say so with REUSE_PORT=true (they share the data directory's lock;
    // one alone holds it exclusively: docs/operations.md, "One process per port").
    services.push(await startService({ DATA_DIR: dataDir, REUSE_PORT: 'true' }, clock))
    services.push(await startService({ DATA_DIR: dataDir, REUSE_PORT: 'true' }, clock))
  }, SLOW_SETUP_MS)
  afterAll(async () => {
    for (const service of services) service.process.kill()
    await Promise.all(services.map((service) => service.process.exited))
  })

  const instant = (service: RunningService, agentId: string) =>
    fetch(`${service.base}/v5/keys/instant`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ agent_id: agentId }) }).then(async (response) => ({ status: response.status, body: (await response.json()) as { api_key?: string } }))

  test('both processes run on the midday clock', async () => {
    for (const service of services) expect(((await (await fetch(`${service.base}/v5/demo`)).json()) as { issued_at: string }).issued_at.slice(11, 13)).toBe('12')
  })

  test('one agent_id asked of both processes at once gets one key', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => instant(services[i % 2]!, 'shared-agent')))
    expect(answers.every((answer) => answer.status === 200)).toBe(true)
    expect(answers.filter((answer) => /^svc_free_[0-9a-f]{64}$/.test(answer.body.api_key ?? '')).length).toBe(1)
  })

  test('a burst of 20 from one address split over both processes admits exactly the daily allowance', async () => {
    // The previous test spent eight units of this address's allowance (127.0.0.1): every answer
    // counts, the seven repeats too, also the ones that lost the insert race in the other process.
    const left = INSTANT_PER_ADDRESS_PER_DAY - 8
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => instant(services[i % 2]!, `burst-${i}`)))
    expect(answers.filter((answer) => answer.status === 200).length).toBe(left)
    expect(answers.filter((answer) => answer.status === 429).length).toBe(20 - left)
  })
})

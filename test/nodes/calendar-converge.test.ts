// Two followers on one PostgreSQL database converge (issue 34): each node has a schedules
// directory of its own; the node holding the `calendar-upstream` lease checks the source and
// stores the accepted manifest and files in the database, every node applies them from there. A
// holiday added on the source is served by both nodes within one poll interval plus the
// five-second sync, recorded once in the shared change list; after a kill -9 of the polling node
// the other takes the lease over and keeps following.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Pair, type Node } from '../helpers/two-nodes'
import { SLOW_SETUP_MS, startService, type RunningService, waitFor } from '../helpers/process'
import { startClusterFirst } from '../helpers/postgres'
import { REPO_SCHEDULES, tempDir, TEST_ADMIN_KEY } from '../helpers/app'
import { writeSchedule } from '../helpers/calendars'
import { sha256Hex } from '../../src/calendar/updates/manifest'

startClusterFirst()

const MICS = ['XNYS', 'XNAS', 'XLON']
const INTERVAL_S = 2

let source: RunningService
let sourceDir: string
let pair: Pair
const dirs: Record<string, string> = {}

const dayOn = async (node: Node, mic: string, date: string) => {
  const answer = await fetch(`${node.base}/v5/calendar?mic=${mic}&from=${date}&to=${date}`)
  expect(answer.status).toBe(200)
  return (await answer.json()) as { data_version: string; days: { kind: string }[] }
}
const upstreamOf = async (node: Node) => ((await (await fetch(`${node.base}/v5/health`)).json()) as { calendars: { upstream: { last_applied_serial: number | null; status: string } } }).calendars.upstream
const sourceSerial = async () => Number(/^serial (\d+)$/m.exec(await (await fetch(`${source.base}/v5/calendars/manifest`)).text())![1])

async function addHoliday(mic: string, date: string, name: string, version: string): Promise<number> {
  const file = JSON.parse(readFileSync(join(sourceDir, `${mic}.json`), 'utf8'))
  file.holidays[date] = name
  file.data_version = version
  writeSchedule(sourceDir, file)
  expect((await fetch(`${source.base}/v5/admin/schedules/reload`, { method: 'POST', headers: { 'x-oracle-key': TEST_ADMIN_KEY } })).status).toBe(200)
  return Date.now()
}

beforeAll(async () => {
  sourceDir = tempDir('openbell-converge-source-')
  for (const mic of MICS) copyFileSync(join(REPO_SCHEDULES, `${mic}.json`), join(sourceDir, `${mic}.json`))
  for (const id of ['node-a', 'node-b']) {
    dirs[id] = tempDir(`openbell-converge-${id}-`)
    for (const mic of MICS) copyFileSync(join(REPO_SCHEDULES, `${mic}.json`), join(dirs[id]!, `${mic}.json`))
  }
  source = await startService({ SCHEDULES_DIR: sourceDir, DATA_DIR: tempDir(), ADMIN_KEY: TEST_ADMIN_KEY }, { startMs: 60_000 })
  const vkey = ((await (await fetch(`${source.base}/v5/keys`)).json()) as { calendar_publisher_key: { vkey: string } }).calendar_publisher_key.vkey
  pair = await Pair.start({
    // The test polls /v5/calendar many times a second from one address: above the per-address calendar rate.
    env: { CALENDAR_UPSTREAM_URL: source.base, CALENDAR_UPSTREAM_KEY: vkey, CALENDAR_UPSTREAM_INTERVAL_S: String(INTERVAL_S), CALENDAR_RATE_PER_MINUTE: '100000' },
    envOf: (id) => ({ SCHEDULES_DIR: dirs[id]! }),
  })
}, SLOW_SETUP_MS)

afterAll(async () => {
  await pair?.stop()
  source?.process.kill('SIGTERM')
  await source?.process.exited
})

describe('two followers on PostgreSQL', () => {
  test('one node checks the source; both apply what it accepted, into their own directories', async () => {
    const serial = await sourceSerial()
    for (const node of pair.nodes) await waitFor(async () => (await upstreamOf(node)).last_applied_serial === serial, 30_000, `${node.id} at serial ${serial}`)
    const leaders = await Promise.all(pair.nodes.map(async (node) => (await pair.storage(node)).leader_of.includes('calendar-upstream')))
    expect(leaders.filter(Boolean).length).toBe(1)
  }, 60_000)

  test('a holiday added on the source is served by both nodes within one poll interval plus the sync, and listed once', async () => {
    const edited = await addHoliday('XNYS', '2027-03-10', 'Converged closure', '2026.12.90')
    const times: Record<string, number> = {}
    await Promise.all(pair.nodes.map(async (node) => {
      await waitFor(async () => (await dayOn(node, 'XNYS', '2027-03-10')).days[0]!.kind === 'holiday', 30_000, `${node.id} serving the holiday`)
      times[node.id] = (Date.now() - edited) / 1000
    }))
    console.log(`holiday served by node a after ${times['node-a']!.toFixed(1)} s, node b after ${times['node-b']!.toFixed(1)} s (interval ${INTERVAL_S} s + sync ≤ 5 s)`)
    for (const node of pair.nodes) {
      expect((await dayOn(node, 'XNYS', '2027-03-10')).data_version).toBe('2026.12.90')
      expect(sha256Hex(readFileSync(join(dirs[node.id]!, 'XNYS.json')))).toBe(sha256Hex(readFileSync(join(sourceDir, 'XNYS.json'))))
    }
    // Both nodes reloaded the change; the shared list has it once, whichever node is asked.
    await Bun.sleep(1000)
    for (const node of pair.nodes) {
      const listed = (await (await fetch(`${node.base}/v5/calendar/changes?mic=XNYS`)).json()) as { changes: { date: string; trigger: string }[] }
      expect(listed.changes).toEqual([expect.objectContaining({ date: '2027-03-10', trigger: 'upstream' })])
    }
  }, 60_000)

  test('kill -9 of the polling node: the other takes the lease over and follows on', async () => {
    const holder = (await Promise.all(pair.nodes.map(async (node) => ((await pair.storage(node)).leader_of.includes('calendar-upstream') ? node : null)))).find(Boolean)!
    const survivor = pair.nodes.find((node) => node !== holder)!
    await pair.kill(holder)
    await addHoliday('XNAS', '2027-03-12', 'Closure after the kill', '2026.12.91')
    await waitFor(async () => (await dayOn(survivor, 'XNAS', '2027-03-12')).days[0]!.kind === 'holiday', 45_000, 'the survivor following')
    expect((await pair.storage(survivor)).leader_of).toContain('calendar-upstream')
  }, 60_000)
})

// Two instances on loopback, one following the other (issue 34): the follower verifies the
// source's signed manifest with the key from the source's /v5/keys, applies a holiday added on the
// source within one poll, and announces it once — by webhook (verified with `standardwebhooks`), on
// /v5/stream (read with `eventsource`) and in /v5/calendar/changes; the tool endpoint's calendar
// answer carries the new data_version. A file edited on the follower is kept and reported until
// `openbell calendars follow --accept-upstream` hands it back. The source going away leaves the
// follower's calendars in force, health saying how old its view is, and its coming back resumes
// the follower (conditional requests: 304 while nothing changed). The source is reached through a
// loopback relay that the test can stop and start on the same port.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { EventSource } from 'eventsource'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { REPO_SCHEDULES, tempDir, TEST_ADMIN_KEY } from '../helpers/app'
import { freePort, SLOW_SETUP_MS, startService, type RunningService, waitFor } from '../helpers/process'
import { makeCertificate, startReceiver, verifyDelivery, type TestCertificate } from '../helpers/https-receiver'
import { writeSchedule } from '../helpers/calendars'
import { openDatabase } from '../../src/store/database'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { sqliteAccountStore } from '../../src/accounts/store'
import { issueKey } from '../../src/accounts/keys'
import { sha256Hex } from '../../src/calendar/updates/manifest'

const MICS = ['XNYS', 'XNAS', 'XLON']
const MAIN = resolve(import.meta.dir, '../../src/main.ts')

let certificate: TestCertificate
let receiver: ReturnType<typeof startReceiver>
let source: RunningService
let follower: RunningService
let sourceDir: string
let followerDir: string
let followerData: string
let followerEnv: Record<string, string>
let vkey: string
let key: string
const relayPort = freePort()
let relay: ReturnType<typeof Bun.serve> | null = null
/** Manifest requests through the relay, with the status the source answered. */
const manifestAnswers: number[] = []

/** A relay on a fixed loopback port to the source: stopping it makes the upstream unreachable. */
function startRelay() {
  relay = Bun.serve({
    hostname: '127.0.0.1',
    port: relayPort,
    async fetch(request) {
      const url = new URL(request.url)
      const answer = await fetch(`${source.base}${url.pathname}`, { headers: request.headers.get('if-none-match') ? { 'if-none-match': request.headers.get('if-none-match')! } : {} })
      if (url.pathname === '/v5/calendars/manifest') manifestAnswers.push(answer.status)
      const headers: Record<string, string> = {}
      for (const name of ['etag', 'content-type', 'cache-control']) if (answer.headers.get(name)) headers[name] = answer.headers.get(name)!
      return new Response(answer.status === 304 ? null : await answer.arrayBuffer(), { status: answer.status, headers })
    },
  })
}

const health = async (service: RunningService) => (await (await fetch(`${service.base}/v5/health`)).json()) as { calendars: { data_versions: Record<string, string | null>; upstream: any } }
/** One day's calendar answer; a refused poll fails as its status, not as a missing member. */
const dayOn = async (service: RunningService, mic: string, date: string) => {
  const answer = await fetch(`${service.base}/v5/calendar?mic=${mic}&from=${date}&to=${date}`)
  if (answer.status !== 200) throw new Error(`/v5/calendar answered ${answer.status}: ${await answer.text()}`)
  return (await answer.json()) as { data_version: string; days: { kind: string; name: string | null }[] }
}

/** Edits a file of the source and reloads it there (as its operator would). */
async function editSource(mic: string, edit: (file: any) => void) {
  const file = JSON.parse(readFileSync(join(sourceDir, `${mic}.json`), 'utf8'))
  edit(file)
  writeSchedule(sourceDir, file)
  const reload = await fetch(`${source.base}/v5/admin/schedules/reload`, { method: 'POST', headers: { 'x-oracle-key': TEST_ADMIN_KEY } })
  expect(reload.status).toBe(200)
  return file.data_version as string
}

async function cli(args: string[]) {
  const child = Bun.spawn(['bun', MAIN, ...args], { env: { ...process.env, ...followerEnv, PORT: '1' }, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()])
  return { code: await child.exited, stdout, stderr }
}

beforeAll(async () => {
  certificate = makeCertificate()
  receiver = startReceiver(certificate)
  sourceDir = tempDir('openbell-cal-source-')
  followerDir = tempDir('openbell-cal-follower-')
  for (const mic of MICS) {
    copyFileSync(join(REPO_SCHEDULES, `${mic}.json`), join(sourceDir, `${mic}.json`))
    copyFileSync(join(REPO_SCHEDULES, `${mic}.json`), join(followerDir, `${mic}.json`))
  }
  source = await startService({ SCHEDULES_DIR: sourceDir, DATA_DIR: tempDir(), ADMIN_KEY: TEST_ADMIN_KEY }, { startMs: 60_000 })
  vkey = ((await (await fetch(`${source.base}/v5/keys`)).json()) as { calendar_publisher_key: { vkey: string } }).calendar_publisher_key.vkey
  startRelay()
  followerData = tempDir('openbell-cal-follower-data-')
  const db = openDatabase(join(followerData, 'openbell.sqlite'))
  applyMigrations(db, MIGRATIONS)
  key = (await issueKey(sqliteAccountStore(db), { plan: 'builder', now: new Date() })).key
  db.close()
  followerEnv = {
    SCHEDULES_DIR: followerDir, DATA_DIR: followerData, ADMIN_KEY: TEST_ADMIN_KEY, LOG_LEVEL: 'info',
    CALENDAR_UPSTREAM_URL: `http://127.0.0.1:${relayPort}`, CALENDAR_UPSTREAM_KEY: vkey, CALENDAR_UPSTREAM_INTERVAL_S: '1',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_DISPATCH_INTERVAL_SECONDS: '1', NODE_EXTRA_CA_CERTS: certificate.certFile,
    // The test polls /v5/calendar from one address every 20 ms: past the default per-address rate.
    CALENDAR_RATE_PER_MINUTE: '100000',
  }
  follower = await startService(followerEnv, { startMs: 60_000 })
}, SLOW_SETUP_MS)

afterAll(async () => {
  for (const service of [follower, source]) {
    if (!service) continue
    service.process.kill('SIGTERM')
    await service.process.exited
  }
  relay?.stop(true)
  receiver.stop()
  certificate.dispose()
})

describe('one instance following another', () => {
  test('the first check verifies the manifest and records its serial; equal files are not rewritten', async () => {
    const upstream = await waitFor(async () => {
      const state = (await health(follower)).calendars.upstream
      return state?.last_applied_serial ? state : undefined
    }, 20_000, 'the first applied serial')
    const served = await (await fetch(`${source.base}/v5/calendars/manifest`)).text()
    expect(upstream).toMatchObject({ url: `http://127.0.0.1:${relayPort}`, status: 'ok', local_overrides: [], last_refusal: null })
    expect(served).toContain(`serial ${upstream.last_applied_serial}\n`)
    // Conditional requests: once read, the manifest is answered 304 while it stays.
    await waitFor(() => manifestAnswers.includes(304), 10_000, 'a 304')
  }, 40_000)

  test('a holiday added on the source reaches the follower within one poll, announced once by webhook, on the stream and in the change list', async () => {
    const subscribed = (await (await fetch(`${follower.base}/v5/webhooks/subscribe`, { method: 'POST', headers: { 'x-oracle-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url('/calendar'), mics: ['XNYS'], events: ['calendar_change'] }) })).json()) as { webhook_id: string; secret: string; events: string[] }
    expect(subscribed.events).toEqual(['calendar_change'])
    const streamed: any[] = []
    const stream = new EventSource(`${follower.base}/v5/stream?mic=XNYS&key=${key}`)
    stream.addEventListener('calendar_change', (event) => streamed.push(JSON.parse(event.data)))
    let connected = false
    stream.addEventListener('market_status', () => (connected = true))
    await waitFor(() => connected, 15_000, 'the stream')
    try {
      expect((await dayOn(follower, 'XNYS', '2027-03-10')).days[0]!.kind).toBe('regular')
      const version = await editSource('XNYS', (file) => {
        file.holidays['2027-03-10'] = 'Market closure (test)'
        file.data_version = '2026.12.90'
      })
      const edited = Date.now()
      await waitFor(async () => (await dayOn(follower, 'XNYS', '2027-03-10')).days[0]!.kind === 'holiday', 15_000, 'the holiday on the follower')
      console.log(`holiday on the follower ${((Date.now() - edited) / 1000).toFixed(1)} s after the source's reload (poll interval 1 s)`)
      expect((await dayOn(follower, 'XNYS', '2027-03-10')).data_version).toBe(version)
      // The follower's file is now the source's, byte for byte.
      expect(sha256Hex(readFileSync(join(followerDir, 'XNYS.json')))).toBe(sha256Hex(readFileSync(join(sourceDir, 'XNYS.json'))))

      await waitFor(() => receiver.received.length >= 1 && streamed.length >= 1, 15_000, 'the webhook delivery and the stream event')
      const changes = (await (await fetch(`${follower.base}/v5/calendar/changes?mic=XNYS`)).json()) as { changes: any[] }
      expect(changes.changes).toEqual([expect.objectContaining({ mic: 'XNYS', trigger: 'upstream', date: '2027-03-10', change: 'holiday_added', data_version_after: version, after: expect.objectContaining({ kind: 'holiday', name: 'Market closure (test)' }) })])
      // More polls and another reload on the follower: still announced once.
      await fetch(`${follower.base}/v5/admin/schedules/reload`, { method: 'POST', headers: { 'x-oracle-key': TEST_ADMIN_KEY } })
      await Bun.sleep(3000)
      expect(receiver.received.length).toBe(1)
      expect(streamed.length).toBe(1)
      const delivery = receiver.received[0]!
      const payload = verifyDelivery(subscribed.secret, delivery) as any
      expect(payload).toMatchObject({ type: 'calendar_change', webhook_id: subscribed.webhook_id, mic: 'XNYS', trigger: 'upstream', data_version_after: version, days_total: 1, event_id: changes.changes[0].event_id })
      expect(payload.days).toEqual([expect.objectContaining({ date: '2027-03-10', change: 'holiday_added', before: expect.objectContaining({ kind: 'regular' }), after: expect.objectContaining({ kind: 'holiday' }) })])
      expect(streamed[0]).toMatchObject({ type: 'calendar_change', mic: 'XNYS', event_id: changes.changes[0].event_id, days: [expect.objectContaining({ date: '2027-03-10', change: 'holiday_added' })] })
      expect((await (await fetch(`${follower.base}/v5/calendar/changes?mic=XNYS`)).json() as { changes: unknown[] }).changes.length).toBe(1)
    } finally {
      stream.close()
    }

    // The tool endpoint's calendar answer carries the data_version an agent can compare.
    const client = new Client({ name: 'calendar-follow-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${follower.base}/mcp`)))
    const result = await client.callTool({ name: 'get_market_calendar', arguments: { mic: 'XNYS', from: '2027-03-10', to: '2027-03-10' } })
    const answer = JSON.parse((result as { content: { text: string }[] }).content[0]!.text)
    expect(answer).toMatchObject({ data_version: '2026.12.90', days: [expect.objectContaining({ kind: 'holiday' })] })
    await client.close()
  }, 90_000)

  test('a file edited on the follower is kept and reported as a local override until handed back with `calendars follow --accept-upstream`', async () => {
    const local = JSON.parse(readFileSync(join(followerDir, 'XLON.json'), 'utf8'))
    local.holidays['2027-06-14'] = 'Local closure (edited here)'
    local.data_version = '2026.12.95'
    writeSchedule(followerDir, local)
    await waitFor(async () => (await dayOn(follower, 'XLON', '2027-06-14')).days[0]!.kind === 'holiday', 15_000, 'the local edit loaded')
    const sourceVersion = await editSource('XLON', (file) => {
      file.holidays['2027-06-15'] = 'Source closure'
      file.data_version = '2026.12.96'
    })
    const upstream = await waitFor(async () => {
      const state = (await health(follower)).calendars.upstream
      return state.local_overrides.includes('XLON') && (await (await fetch(`${source.base}/v5/calendars/manifest`)).text()).includes(`serial ${state.last_applied_serial}\n`) ? state : undefined
    }, 20_000, 'the override reported at the current serial')
    expect(upstream.local_overrides).toEqual(['XLON'])
    expect((await dayOn(follower, 'XLON', '2027-06-14')).days[0]!.name).toBe('Local closure (edited here)')
    expect((await dayOn(follower, 'XLON', '2027-06-15')).days[0]!.kind).toBe('regular')
    const status = await cli(['calendars', 'status'])
    expect(status.code).toBe(0)
    expect(status.stdout).toContain('local overrides: XLON')

    const handed = await cli(['calendars', 'follow', '--accept-upstream', 'XLON'])
    expect(handed.code).toBe(0)
    expect(handed.stdout).toContain('XLON: the local edit')
    await waitFor(async () => (await dayOn(follower, 'XLON', '2027-06-15')).days[0]!.kind === 'holiday', 15_000, 'the upstream file after the hand-back')
    expect((await dayOn(follower, 'XLON', '2027-06-14')).days[0]!.kind).toBe('regular')
    expect((await dayOn(follower, 'XLON', '2027-06-15')).data_version).toBe(sourceVersion)
    expect((await health(follower)).calendars.upstream.local_overrides).toEqual([])
  }, 60_000)

  test('the source unreachable: the calendars stay, health says so and how old the view is; back: followed again', async () => {
    relay!.stop(true)
    const down = await waitFor(async () => {
      const state = (await health(follower)).calendars.upstream
      return state.status === 'unreachable' ? state : undefined
    }, 15_000, 'unreachable in health')
    expect(down.last_error).toBeString()
    expect(down.age_s).toBeGreaterThanOrEqual(0)
    expect((await health(follower)).calendars.data_versions.XNYS).toBe('2026.12.90')
    expect((await dayOn(follower, 'XNYS', '2027-03-10')).days[0]!.kind).toBe('holiday')
    // A change made while the follower cannot see the source…
    await editSource('XNAS', (file) => {
      file.holidays['2027-03-11'] = 'Closure while unreachable'
      file.data_version = '2026.12.97'
    })
    startRelay()
    // …arrives once it can again (the backoff after a few failures is a few seconds).
    await waitFor(async () => (await dayOn(follower, 'XNAS', '2027-03-11')).days[0]!.kind === 'holiday', 30_000, 'the follower back')
    // Health is signed at most once a second: its view may lag by that.
    await waitFor(async () => (await health(follower)).calendars.upstream.status === 'ok', 3000, 'ok in health')
  }, 60_000)
})

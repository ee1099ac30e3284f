// A follower of a static directory written by `openbell calendars publish --out DIR` (served by a
// plain file server on loopback), and every refusal of issue 34 played against it: a bad
// signature, an unknown key, a replayed serial, a reused one, a rollback, a hash mismatch, a file
// the validator refuses, a manifest and a file over the size limits, and an answer that is no
// signed note. Each leaves the follower's calendars as they were and puts the reason in
// /v5/health; a good manifest after them is applied.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chmodSync, copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { randomBytes } from 'node:crypto'
import { REPO_SCHEDULES, tempDir } from '../helpers/app'
import { SLOW_SETUP_MS, startService, type RunningService, waitFor } from '../helpers/process'
import { writeSchedule } from '../helpers/calendars'
import { Signer } from '../../src/crypto/signer'
import { calendarPublisherKey, publisherKeyName } from '../../src/calendar/updates/publisher'
import { manifestText, sha256Hex, type ManifestFile } from '../../src/calendar/updates/manifest'
import type { NoteSigner } from '../../src/transparency/note'

const MAIN = resolve(import.meta.dir, '../../src/main.ts')
const MICS = ['XNYS', 'XNAS']
const BASE_URL = 'https://source.example'

let publisherData: string
let publisherSchedules: string
let staticDir: string
let followerDir: string
let follower: RunningService
let server: ReturnType<typeof Bun.serve>
let key: NoteSigner
let vkey: string
/** Answers the test puts in place of the directory's files, by path. */
const replaced = new Map<string, () => Response>()

async function publish(): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = Bun.spawn(['bun', MAIN, 'calendars', 'publish', '--out', staticDir, '--init'], { env: { ...process.env, DATA_DIR: publisherData, SCHEDULES_DIR: publisherSchedules, PUBLIC_BASE_URL: BASE_URL }, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()])
  return { code: await child.exited, stdout, stderr }
}

type Health = { calendars: { data_versions: Record<string, string | null>; upstream: { status: string; last_applied_serial: number | null; last_refusal: { reason: string; detail: string; serial: number | null } | null } } }
const health = async () => (await (await fetch(`${follower.base}/v5/health`)).json()) as Health
/** One day's kind on the follower; a refused poll fails as its status, not as a missing member. */
const dayOn = async (mic: string, date: string) => {
  const answer = await fetch(`${follower.base}/v5/calendar?mic=${mic}&from=${date}&to=${date}`)
  if (answer.status !== 200) throw new Error(`/v5/calendar answered ${answer.status}: ${await answer.text()}`)
  return ((await answer.json()) as { data_version: string; days: { kind: string }[] }).days[0]!.kind
}

const fileLine = (mic: string, body: string | Uint8Array, version: string): ManifestFile => ({ mic, data_version: version, sha256: sha256Hex(body), size: typeof body === 'string' ? Buffer.byteLength(body) : body.length })
const publishedBytes = (mic: string) => readFileSync(join(staticDir, 'v5', 'calendars', 'files', `${mic}.json`))
const versionOf = (bytes: Uint8Array | string) => JSON.parse(typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8')).data_version as string
const note = (serial: number, files: ManifestFile[], signer: NoteSigner = key) => signer.sign(manifestText({ origin: key.name, serial, issued: '2026-12-06T00:00:00.000Z', files }))
const text = (body: string) => () => new Response(body)

beforeAll(async () => {
  publisherData = tempDir('openbell-publisher-')
  const seed = randomBytes(32)
  writeFileSync(join(publisherData, 'signing-key.hex'), `${seed.toString('hex')}\n`, { mode: 0o600 })
  chmodSync(join(publisherData, 'signing-key.hex'), 0o600)
  key = calendarPublisherKey(Signer.fromSeed(new Uint8Array(seed), 'k', '2026-01-01T00:00:00.000Z', null), publisherKeyName(BASE_URL))!
  publisherSchedules = tempDir('openbell-publisher-schedules-')
  followerDir = tempDir('openbell-static-follower-')
  for (const mic of MICS) {
    copyFileSync(join(REPO_SCHEDULES, `${mic}.json`), join(publisherSchedules, `${mic}.json`))
    copyFileSync(join(REPO_SCHEDULES, `${mic}.json`), join(followerDir, `${mic}.json`))
  }
  staticDir = tempDir('openbell-static-')
  const published = await publish()
  expect(published.code).toBe(0)
  vkey = /CALENDAR_UPSTREAM_KEY=(\S+)/.exec(published.stdout)![1]!
  expect(vkey).toBe(key.vkey)
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname
      const answer = replaced.get(path)
      if (answer) return answer()
      const file = join(staticDir, path)
      return existsSync(file) && !path.includes('..') ? new Response(Bun.file(file)) : new Response('not found', { status: 404 })
    },
  })
  follower = await startService({ SCHEDULES_DIR: followerDir, DATA_DIR: tempDir(), CALENDAR_UPSTREAM_URL: `http://127.0.0.1:${server.port}/`, CALENDAR_UPSTREAM_KEY: vkey, CALENDAR_UPSTREAM_INTERVAL_S: '1',
    // The test polls /v5/calendar from one address every 20 ms: past the default per-address rate.
    CALENDAR_RATE_PER_MINUTE: '100000' }, { startMs: 60_000 })
}, SLOW_SETUP_MS)

afterAll(async () => {
  follower?.process.kill('SIGTERM')
  await follower?.process.exited
  server?.stop(true)
})

describe('following a static directory', () => {
  test('`calendars publish` writes what the follower applies; publishing again without a change keeps the serial; an invalid file is not published', async () => {
    await waitFor(async () => (await health()).calendars.upstream.last_applied_serial === 1, 20_000, 'serial 1 applied')
    const file = JSON.parse(readFileSync(join(publisherSchedules, 'XNYS.json'), 'utf8'))
    file.holidays['2027-03-10'] = 'Published closure'
    file.data_version = '2026.12.90'
    writeSchedule(publisherSchedules, file)
    const again = await publish()
    expect(again.stdout).toContain('published serial 2: 2 files')
    expect((await publish()).stdout).toContain('published serial 2: 2 files')
    await waitFor(async () => (await dayOn('XNYS', '2027-03-10')) === 'holiday', 20_000, 'the published holiday on the follower')
    await waitFor(async () => (await health()).calendars.upstream.last_applied_serial === 2, 5000, 'serial 2 in health')

    writeSchedule(publisherSchedules, '{"schema_version": 3}', 'XNAS')
    const refused = await publish()
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('FAIL  XNAS')
    expect(refused.stderr).toContain('Nothing was written')
    expect(readFileSync(join(staticDir, 'v5', 'calendars', 'manifest'), 'utf8')).toContain('serial 2\n')
    copyFileSync(join(REPO_SCHEDULES, 'XNAS.json'), join(publisherSchedules, 'XNAS.json'))
  }, 60_000)

  test('each refusal keeps the calendars in force and puts its reason in /v5/health', async () => {
    const xnys = publishedBytes('XNYS')
    const xnas = publishedBytes('XNAS')
    const good = [fileLine('XNAS', xnas, versionOf(xnas)), fileLine('XNYS', xnys, versionOf(xnys))]
    const inForce = { ...(await health()).calendars.data_versions }
    expect(inForce.XNYS).toBe('2026.12.90')

    const newer = JSON.parse(Buffer.from(xnys).toString('utf8'))
    newer.holidays['2027-03-11'] = 'Refused closure'
    newer.data_version = '2026.12.91'
    const newerText = JSON.stringify(newer)
    const other = calendarPublisherKey(Signer.fromSeed(new Uint8Array(randomBytes(32)), 'k', '2026-01-01T00:00:00.000Z', null), key.name)!
    const tampered = (() => {
      const signed = note(3, [good[0]!, fileLine('XNYS', newerText, '2026.12.91')])
      const line = signed.trimEnd().split('\n').at(-1)!
      const bytes = Buffer.from(line.split(' ').at(-1)!, 'base64')
      bytes[bytes.length - 1]! ^= 0x01
      return signed.replace(line, `${line.split(' ').slice(0, -1).join(' ')} ${bytes.toString('base64')}`)
    })()
    const original = readFileSync(join(REPO_SCHEDULES, 'XNYS.json'))
    const invalid = JSON.stringify({ ...newer, holidays: { ...newer.holidays, '2099-01-01': 'Outside coverage' } })
    const large = Buffer.alloc(1024 * 1024 + 10, 0x20)

    const cases: { reason: string; manifest: string | (() => Response); files?: Record<string, () => Response> }[] = [
      { reason: 'bad_signature', manifest: tampered, files: { XNYS: text(newerText) } },
      { reason: 'unknown_key', manifest: note(3, [good[0]!, fileLine('XNYS', newerText, '2026.12.91')], other), files: { XNYS: text(newerText) } },
      { reason: 'replay', manifest: note(1, good) },
      { reason: 'serial_reused', manifest: note(2, [good[0]!, fileLine('XNYS', newerText, '2026.12.91')]), files: { XNYS: text(newerText) } },
      { reason: 'rollback', manifest: note(3, [good[0]!, fileLine('XNYS', original, versionOf(original))]), files: { XNYS: () => new Response(original) } },
      { reason: 'hash_mismatch', manifest: note(3, [good[0]!, fileLine('XNYS', newerText, '2026.12.91')]), files: { XNYS: text(newerText.replace('Refused closure', 'Other closure')) } },
      { reason: 'invalid_file', manifest: note(3, [good[0]!, fileLine('XNYS', invalid, '2026.12.91')]), files: { XNYS: text(invalid) } },
      { reason: 'too_large', manifest: () => new Response(Buffer.alloc(70 * 1024, 0x61)) },
      { reason: 'too_large', manifest: note(3, [good[0]!, fileLine('XNYS', large, '2026.12.91')]), files: { XNYS: () => new Response(large) } },
      { reason: 'malformed_manifest', manifest: () => new Response('<html>maintenance</html>\n') },
    ]
    let previous: string | null = null
    for (const step of cases) {
      replaced.clear()
      replaced.set('/v5/calendars/manifest', typeof step.manifest === 'string' ? text(step.manifest) : step.manifest)
      for (const [mic, answer] of Object.entries(step.files ?? {})) replaced.set(`/v5/calendars/files/${mic}.json`, answer)
      const refusal = await waitFor(async () => {
        const upstream = (await health()).calendars.upstream
        const current = upstream.last_refusal && JSON.stringify(upstream.last_refusal)
        return upstream.status === 'refused' && upstream.last_refusal?.reason === step.reason && current !== previous ? upstream.last_refusal : undefined
      }, 20_000, `the refusal ${step.reason}`)
      previous = JSON.stringify(refusal)
      expect(refusal.detail.length).toBeGreaterThan(10)
      expect((await health()).calendars.data_versions).toEqual(inForce)
      expect(await dayOn('XNYS', '2027-03-11')).toBe('regular')
      expect((await health()).calendars.upstream.last_applied_serial).toBe(2)
    }

    // A good manifest after all that: applied.
    replaced.clear()
    replaced.set('/v5/calendars/manifest', text(note(3, [good[0]!, fileLine('XNYS', newerText, '2026.12.91')])))
    replaced.set('/v5/calendars/files/XNYS.json', text(newerText))
    await waitFor(async () => (await dayOn('XNYS', '2027-03-11')) === 'holiday', 20_000, 'the good manifest applied')
    await waitFor(async () => (await health()).calendars.upstream.status === 'ok', 5000, 'ok in health')
    expect((await health()).calendars.upstream.last_applied_serial).toBe(3)
  }, 240_000)
})

// Every instance as a calendar source (GET /v5/calendars/manifest and /files/{MIC}.json): the
// manifest is a C2SP signed note that verifies with the calendar_publisher_key of /v5/keys, lists
// each file in force with the SHA-256 and size of the exact bytes served, keeps its serial while the
// files stay and takes the next when one changes; ETag and 304 on both. And the change list of the
// reloads it made: GET /v5/calendar/changes (validated, paged) and its Atom feed read by a real
// feed parser.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseAtomFeed } from 'feedsmith'
import { checkNoteSignature, parseNote, parseVkey } from '../../src/transparency/note'
import { parseManifest, sha256Hex } from '../../src/calendar/updates/manifest'
import { CALENDAR_PUBLISHER_PURPOSE } from '../../src/calendar/updates/publisher'
import { makeTestApp, REPO_SCHEDULES, tempDir, TEST_ADMIN_KEY, type TestApp } from '../helpers/app'
import { writeSchedule } from '../helpers/calendars'

const MICS = ['XNYS', 'XLON', 'XNAS']

describe('calendar source', () => {
  let dir: string
  let app: TestApp
  let stop: () => Promise<void>

  beforeAll(() => {
    dir = tempDir('openbell-source-')
    for (const mic of MICS) copyFileSync(join(REPO_SCHEDULES, `${mic}.json`), join(dir, `${mic}.json`))
    app = makeTestApp({ schedulesDir: dir, now: '2026-12-06T12:00:00.000Z' })
    stop = app.deps.delivery.calendarChanges.start()
  })
  afterAll(() => stop())

  const manifestOf = async () => {
    const response = await app.request('/v5/calendars/manifest')
    expect(response.status).toBe(200)
    const text = await response.text()
    const note = parseNote(text)!
    const parsed = parseManifest(note.text)
    if (!parsed.ok) throw new Error(parsed.reason)
    return { text, note, manifest: parsed.manifest, etag: response.headers.get('etag')! }
  }

  test('/v5/keys publishes the calendar-publisher key, derived from the signing seed with its own purpose; the manifest verifies with it and with nothing else', async () => {
    const keys = (await app.json('/v5/keys')).body
    const published = keys.calendar_publisher_key
    expect(published).toMatchObject({ name: 'oracle.test/calendars', algorithm: 'Ed25519' })
    expect(CALENDAR_PUBLISHER_PURPOSE).toBe('openbell calendar publisher key v1')
    const vkey = parseVkey(published.vkey)!
    expect(vkey.keyId.toString(16).padStart(8, '0')).toBe(published.key_id)
    // Not the log's note key or the witness's: a key of its own.
    expect(published.vkey).not.toBe(keys.log_note_key.vkey)
    const { note, manifest } = await manifestOf()
    expect(checkNoteSignature(note, vkey)).toBe('valid')
    expect(checkNoteSignature(note, parseVkey(keys.log_note_key.vkey)!)).toBe('absent')
    expect(manifest.origin).toBe('oracle.test/calendars')
    expect(manifest.files.map((file) => file.mic)).toEqual(['XLON', 'XNAS', 'XNYS'])
  })

  test('each listed file is served as the exact bytes of the file in force, its SHA-256 and size as listed; ETag and 304', async () => {
    const { manifest } = await manifestOf()
    for (const file of manifest.files) {
      const response = await app.request(`/v5/calendars/files/${file.mic}.json`)
      const bytes = new Uint8Array(await response.arrayBuffer())
      expect(bytes.length).toBe(file.size)
      expect(sha256Hex(bytes)).toBe(file.sha256)
      expect(Buffer.from(bytes).equals(readFileSync(join(dir, `${file.mic}.json`)))).toBe(true)
      expect(response.headers.get('etag')).toBe(`"${file.sha256}"`)
      expect((await app.request(`/v5/calendars/files/${file.mic}.json`, { headers: { 'if-none-match': `"${file.sha256}"` } })).status).toBe(304)
    }
    expect((await app.json('/v5/calendars/files/XTAE.json')).body.error).toBe('CALENDAR_FILE_NOT_FOUND')
    expect((await app.json('/v5/calendars/files/NOPE.json')).body.error).toBe('UNKNOWN_MIC')
    expect((await app.json('/v5/calendars/files/XNYS.txt')).status).toBe(404)
  })

  test('the serial stays while the files stay (304 on the ETag); an edit takes the next serial, and the reload is a recorded change', async () => {
    const first = await manifestOf()
    expect((await app.request('/v5/calendars/manifest', { headers: { 'if-none-match': first.etag } })).status).toBe(304)
    app.deps.calendars.reload('admin')
    const again = await manifestOf()
    expect(again.text).toBe(first.text)

    const file = JSON.parse(readFileSync(join(dir, 'XNYS.json'), 'utf8'))
    file.holidays['2027-03-10'] = 'Test closure'
    file.data_version = '2026.12.90'
    writeSchedule(dir, file)
    const reload = await app.json('/v5/admin/schedules/reload', { method: 'POST', headers: { 'x-oracle-key': TEST_ADMIN_KEY } })
    expect(reload.status).toBe(200)
    const next = await manifestOf()
    expect(next.manifest.serial).toBe(first.manifest.serial + 1)
    expect(next.manifest.files.find((entry) => entry.mic === 'XNYS')!.data_version).toBe('2026.12.90')
    expect((await app.request('/v5/calendars/manifest', { headers: { 'if-none-match': first.etag } })).status).toBe(200)

    // The change is in the durable list (the announcer records it after the reload).
    let listed: any[] = []
    for (let i = 0; i < 100 && !listed.length; i++) {
      listed = (await app.json('/v5/calendar/changes?mic=XNYS')).body.changes
      if (!listed.length) await Bun.sleep(20)
    }
    expect(listed).toEqual([expect.objectContaining({ mic: 'XNYS', trigger: 'admin', date: '2027-03-10', change: 'holiday_added', data_version_after: '2026.12.90', before: expect.objectContaining({ kind: 'regular' }), after: expect.objectContaining({ kind: 'holiday', name: 'Test closure' }) })])
  })

  test('/v5/calendar/changes: the query is checked (each refusal the error object), paging by cursor, filtering by time', async () => {
    for (const [query, code] of [['mic=NOPE', 'UNKNOWN_MIC'], ['since=yesterday', 'INVALID_SINCE'], ['since=2026-02-30T00:00:00Z', 'INVALID_SINCE'], ['since=1969-12-31T23:59:59Z', 'SINCE_OUT_OF_RANGE'], ['limit=0', 'INVALID_LIMIT'], ['limit=501', 'INVALID_LIMIT'], ['limit=01', 'INVALID_LIMIT'], ['cursor=abc', 'INVALID_CURSOR'], ['colour=red', 'UNKNOWN_PARAMETER']] as const) {
      const answer = await app.json(`/v5/calendar/changes?${query}`)
      expect({ query, status: answer.status, error: answer.body.error }).toEqual({ query, status: 400, error: code })
    }
    // Two more dates changed in one reload: three rows in all, two pages of two.
    const file = JSON.parse(readFileSync(join(dir, 'XNYS.json'), 'utf8'))
    file.holidays['2027-03-11'] = 'Second closure'
    file.holidays['2027-03-12'] = 'Third closure'
    file.data_version = '2026.12.91'
    writeSchedule(dir, file)
    await app.deps.delivery.calendarChanges.announce(app.deps.calendars.reload('SIGHUP'))
    const page1 = (await app.json('/v5/calendar/changes?limit=2')).body
    expect(page1.changes.map((row: any) => row.date)).toEqual(['2027-03-12', '2027-03-11'])
    expect(page1.next_cursor).toBeString()
    const page2 = (await app.json(`/v5/calendar/changes?limit=2&cursor=${page1.next_cursor}`)).body
    expect(page2.changes.map((row: any) => row.date)).toEqual(['2027-03-10'])
    expect(page2.next_cursor).toBeNull()
    const future = (await app.json('/v5/calendar/changes?since=2099-01-01T00:00:00%2B01:00')).body
    expect(future.changes).toEqual([])
  })

  test('the Atom feed parses with a feed parser: one entry per venue and reload, newest first, each date in its text', async () => {
    const response = await app.request('/v5/calendar/changes.atom?mic=XNYS')
    expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8')
    const feed = parseAtomFeed(await response.text())
    expect(feed.title?.value).toBe('openbell: calendar changes of XNYS')
    const entries = feed.entries ?? []
    expect(entries.length).toBe(2)
    expect(entries[0]!.title?.value).toBe('XNYS: 2 dates changed')
    expect(entries[1]!.title?.value).toBe('XNYS: 2027-03-10 holiday added: trading day 09:30–16:00 → holiday "Test closure"')
    expect(entries[0]!.content?.value).toContain('2027-03-12 holiday added: trading day 09:30–16:00 → holiday "Third closure"')
    expect(entries[0]!.content?.value).toStartWith('XNYS: data_version 2026.12.90 → 2026.12.91 (SIGHUP)')
    expect(entries[0]!.id).not.toBe(entries[1]!.id)
    expect(entries[0]!.links?.[0]?.href).toBe('https://oracle.test/venue/XNYS')
    const etag = response.headers.get('etag')!
    expect((await app.request('/v5/calendar/changes.atom?mic=XNYS', { headers: { 'if-none-match': etag } })).status).toBe(304)
    // A venue without changes: a valid feed without entries.
    expect(parseAtomFeed(await (await app.request('/v5/calendar/changes.atom?mic=XLON')).text()).entries ?? []).toEqual([])
  })

  test("the venue page shows when the venue's data last changed", async () => {
    const page = await (await app.request('/venue/XNYS', { headers: { accept: 'text/html' } })).text()
    expect(page).toContain('Last changed')
    expect(page).toMatch(/2026-12-06 12:00 UTC<\/time>: 2 dates changed, data_version 2026\.12\.90 → 2026\.12\.91 \(SIGHUP\)/)
    expect(await (await app.request('/venue/XLON', { headers: { accept: 'text/html' } })).text()).toContain('no change recorded since this file was loaded')
  })
})

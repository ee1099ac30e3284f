// The calendar-update stores on both backends (migrations 70 and 71): the manifest serial (one per
// set of files, only growing, the same for two nodes publishing the same set at once), accepted
// upstream manifests and files (a replayed serial stores nothing), the follower's status, and the
// durable change list (a change two nodes reloaded is stored once; newest first; paged).
import { expect, test } from 'bun:test'
import { sqlitePublicationStore, sqliteUpstreamStore, type PublicationStore, type UpstreamStore } from '../../src/calendar/updates/store'
import { postgresPublicationStore, postgresUpstreamStore } from '../../src/calendar/updates/store-postgres'
import { sqliteCalendarChangeStore, type CalendarChangeStore, type ChangeEvent } from '../../src/calendar/changes/store'
import { postgresCalendarChangeStore } from '../../src/calendar/changes/store-postgres'
import { sqliteTransactor } from '../../src/store/sqlite-transaction'
import { postgresTransactor } from '../../src/store/postgres-transaction'
import type { Transactor } from '../../src/store/transaction'
import { forEachBackend } from '../helpers/backends'

const sha = (char: string) => char.repeat(64)
const noteNaming = (...shas: string[]) => `openbell calendar manifest v1\nexample/calendars\nserial 1\nissued 2026-12-01T00:00:00.000Z\n${shas.map((hash, i) => `XN${i}S 2026.1.0 ${hash} 10`).join('\n')}\n\n— example/calendars AAAA\n`

const day = (date: string, kind: string, name: string | null) => ({ date, kind, name, basis: 'published', sessions: [], phases: null }) as never

forEachBackend('calendar update stores', (fresh) => {
  const open = async () => {
    const backend = await fresh()
    return {
      transactor: backend.pick<Transactor>({ sqlite: sqliteTransactor, postgres: postgresTransactor }),
      publications: backend.pick<PublicationStore>({ sqlite: sqlitePublicationStore, postgres: postgresPublicationStore }),
      upstream: backend.pick<UpstreamStore>({ sqlite: sqliteUpstreamStore, postgres: postgresUpstreamStore }),
      changes: backend.pick<CalendarChangeStore>({ sqlite: sqliteCalendarChangeStore, postgres: postgresCalendarChangeStore }),
    }
  }

  test('publications: the same set keeps its serial, another set takes the next, never lower than asked; the same new set published at once gets one serial', async () => {
    const { transactor, publications } = await open()
    const publish = (set: string, atLeast?: number) => transactor.run(() => publications.publish(set, '2026-12-01T00:00:00.000Z', atLeast))
    expect(await publications.latest()).toBeNull()
    expect(await publish('A')).toEqual({ serial: 1, set_hash: 'A', issued_at: '2026-12-01T00:00:00.000Z' })
    expect((await publish('A')).serial).toBe(1)
    expect((await publish('B')).serial).toBe(2)
    // Back to an earlier set: a new serial (a follower never sees a serial go down).
    expect((await publish('A')).serial).toBe(3)
    // A static directory that already holds serial 7 (openbell calendars publish): at least 8.
    expect((await publish('C', 8)).serial).toBe(8)
    const together = await Promise.all(Array.from({ length: 6 }, () => publish('D')))
    expect(new Set(together.map((publication) => publication.serial))).toEqual(new Set([9]))
    expect((await publications.latest())!.serial).toBe(9)
  })

  test('upstream: a manifest is accepted once, a lower or equal serial stores nothing, files are kept by hash and pruned with their manifests', async () => {
    const { transactor, upstream } = await open()
    const accept = (serial: number, files: { sha256: string; mic: string; body: string }[], note = noteNaming(...files.map((file) => file.sha256))) =>
      transactor.run(() => upstream.accept({ publisher: 'vkey-1', serial, note, url: 'https://source.example', accepted_at: `2026-12-0${serial}T00:00:00.000Z` }, files))
    expect(await accept(2, [{ sha256: sha('a'), mic: 'XNYS', body: '{"a":1}' }])).toBe(true)
    expect(await accept(2, [])).toBe(false)
    expect(await accept(1, [])).toBe(false)
    expect((await upstream.latest('vkey-1'))!.serial).toBe(2)
    expect(await upstream.latest('vkey-2')).toBeNull()
    expect(await accept(3, [{ sha256: sha('b'), mic: 'XNYS', body: '{"b":1}' }], noteNaming(sha('b')))).toBe(true)
    expect([...(await upstream.stored([sha('a'), sha('b'), sha('c')]))].sort()).toEqual([sha('a'), sha('b')])
    expect((await upstream.files([sha('b')])).get(sha('b'))).toEqual({ sha256: sha('b'), mic: 'XNYS', body: '{"b":1}' })
    // Keep the newest manifest only: serial 2 and the file only it named go.
    await upstream.prune('vkey-1', 1)
    expect([...(await upstream.stored([sha('a'), sha('b')]))]).toEqual([sha('b')])
    expect((await upstream.latest('vkey-1'))!.serial).toBe(3)
  })

  test('upstream status: written and read back whole', async () => {
    const { upstream } = await open()
    expect(await upstream.status()).toBeNull()
    const status = { url: 'https://source.example', publisher: 'vkey-1', status: 'refused' as const, last_check: '2026-12-01T00:00:00.000Z', last_success: null, last_error: null, last_refusal: '{"reason":"replay"}', etag: null }
    await upstream.writeStatus(status)
    await upstream.writeStatus({ ...status, status: 'ok', etag: '"m3"' })
    expect(await upstream.status()).toEqual({ ...status, status: 'ok', etag: '"m3"' })
  })

  test('changes: recorded once however many nodes reload it, listed newest first with their days, paged, filtered by venue and time', async () => {
    const { transactor, changes } = await open()
    const event = (mic: string, at: string, before: string, after: string, dates: string[]): ChangeEvent => ({
      mic, at, trigger: 'upstream', data_version_before: '2026.1.0', data_version_after: '2026.1.1', hash_before: before, hash_after: after,
      days: dates.map((date) => ({ date, change: 'holiday_added' as const, before: day(date, 'regular', null), after: day(date, 'holiday', `Holiday ${date}`) })),
    })
    const first = event('XNYS', '2026-12-01T10:00:00.000Z', 'h0', 'h1', ['2027-01-04', '2027-01-05'])
    // Two nodes that reloaded the same change at once: one row.
    const both = await Promise.all([transactor.run(() => changes.record(first)), transactor.run(() => changes.record({ ...first, at: '2026-12-01T10:00:01.000Z' }))])
    expect(both.filter((outcome) => outcome.recorded).length).toBe(1)
    expect(both[0]!.id).toBe(both[1]!.id)
    await transactor.run(() => changes.record(event('XLON', '2026-12-02T10:00:00.000Z', 'l0', 'l1', ['2027-01-06'])))
    // The same venue changed back and then again: each is a change.
    await transactor.run(() => changes.record(event('XNYS', '2026-12-03T10:00:00.000Z', 'h1', 'h0', ['2027-01-07'])))
    expect((await transactor.run(() => changes.record(event('XNYS', '2026-12-04T10:00:00.000Z', 'h0', 'h1', ['2027-01-08'])))).recorded).toBe(true)

    const all = await changes.list({ limit: 100 })
    expect(all.map((row) => `${row.mic} ${row.date}`)).toEqual(['XNYS 2027-01-08', 'XNYS 2027-01-07', 'XLON 2027-01-06', 'XNYS 2027-01-05', 'XNYS 2027-01-04'])
    expect(all[4]).toMatchObject({ mic: 'XNYS', trigger: 'upstream', data_version_before: '2026.1.0', data_version_after: '2026.1.1', change: 'holiday_added', before: { kind: 'regular' }, after: { kind: 'holiday', name: 'Holiday 2027-01-04' } })
    expect(all[4]!.event_id).toBe(all[3]!.event_id)
    const page1 = await changes.list({ limit: 2 })
    const page2 = await changes.list({ limit: 2, before: page1.at(-1)!.id })
    expect([...page1, ...page2].map((row) => row.id)).toEqual(all.slice(0, 4).map((row) => row.id))
    expect((await changes.list({ mic: 'XLON', limit: 10 })).map((row) => row.date)).toEqual(['2027-01-06'])
    expect((await changes.list({ since: '2026-12-03T00:00:00.000Z', limit: 10 })).map((row) => row.date)).toEqual(['2027-01-08', '2027-01-07'])

    const events = await changes.events({ mic: 'XNYS', limit: 2, daysPerEvent: 1 })
    expect(events.map((row) => [row.at, row.day_count, row.days.map((entry) => entry.date)])).toEqual([['2026-12-04T10:00:00.000Z', 1, ['2027-01-08']], ['2026-12-03T10:00:00.000Z', 1, ['2027-01-07']]])
    expect((await changes.events({ limit: 10, daysPerEvent: 1 })).at(-1)!.days.map((entry) => entry.date)).toEqual(['2027-01-04'])
    expect(await changes.latest('XNYS')).toMatchObject({ at: '2026-12-04T10:00:00.000Z', day_count: 1, trigger: 'upstream' })
    expect(await changes.latest('XTAE')).toBeNull()
  })
})

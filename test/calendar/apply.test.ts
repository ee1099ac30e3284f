// Applying an accepted manifest to a schedules directory (src/calendar/updates/apply.ts): what is
// refused before a byte is written (hash, validation, rollback), what is left alone (local edits,
// venues this build does not serve), and the journal: a crash in the middle of the renames leaves a
// directory that the next start completes before its first load — the real service, started over
// such a directory, serves the whole manifest, never half of it.
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { JOURNAL_FILE, planApply, recoverPendingApply, stateAfter, writeFiles, type LocalView } from '../../src/calendar/updates/apply'
import { emptyState, readLocalState, STATE_FILE, type LocalState } from '../../src/calendar/updates/local-state'
import { sha256Hex, type Manifest } from '../../src/calendar/updates/manifest'
import { memoryLogger } from '../../src/log'
import { scheduleDir, scheduleFixture } from '../helpers/calendars'
import { startService, type RunningService } from '../helpers/process'
import { tempDir } from '../helpers/app'

const text = (overrides: Parameters<typeof scheduleFixture>[0]) => JSON.stringify(scheduleFixture(overrides), null, 2)
const entry = (mic: string, body: string, data_version: string) => ({ mic, data_version, sha256: sha256Hex(body), size: Buffer.byteLength(body) })
const manifestOf = (serial: number, files: Manifest['files']): Manifest => ({ origin: 'source.example/calendars', serial, issued: '2026-12-06T00:00:00.000Z', files })

function view(disk: Record<string, string | null>, inForce: Record<string, string | null>, state: LocalState = emptyState()): LocalView {
  return { state, disk: (mic) => disk[mic] ?? null, inForce: (mic) => inForce[mic] ?? null }
}

describe('planApply', () => {
  const local = text({ data_version: '2026.1.0' })
  const newer = text({ data_version: '2026.1.1', holidays: { '2026-07-03': 'Independence Day (observed)' } })
  const older = text({ data_version: '2025.9.0' })

  test('a newer file is written, an equal one left, a venue this build does not serve ignored', () => {
    const manifest = manifestOf(2, [entry('XNYS', newer, '2026.1.1'), entry('ZZZZ', '{}', '2026.1.0')])
    const planned = planApply(manifest, new Map([[sha256Hex(newer), newer]]), view({ XNYS: sha256Hex(local) }, { XNYS: '2026.1.0' }))
    expect(planned).toEqual({ ok: true, plan: { writes: [{ mic: 'XNYS', sha256: sha256Hex(newer), body: newer }], overrides: [], unchanged: [], ignored: ['ZZZZ'] } })
    const same = planApply(manifest, new Map(), view({ XNYS: sha256Hex(newer) }, { XNYS: '2026.1.1' }))
    expect(same.ok && same.plan.unchanged).toEqual(['XNYS'])
  })

  test('refused before anything is written: a body that is not the hashed file, a file the validator refuses, a version that is not the listed one, a rollback', () => {
    const disk = view({ XNYS: sha256Hex(local) }, { XNYS: '2026.1.0' })
    const cases: [Manifest['files'][number], string, string][] = [
      [entry('XNYS', newer, '2026.1.1'), `${newer} `, 'hash_mismatch'],
      [entry('XNYS', '{"schema_version":1}', '2026.1.1'), '{"schema_version":1}', 'invalid_file'],
      [entry('XNYS', newer, '2026.1.7'), newer, 'invalid_file'],
      [entry('XNYS', older, '2025.9.0'), older, 'rollback'],
    ]
    for (const [file, body, reason] of cases) {
      const planned = planApply(manifestOf(2, [file]), new Map([[file.sha256, body]]), disk)
      expect({ reason, outcome: planned.ok ? 'applied' : planned.refusal.reason }).toEqual({ reason, outcome: reason })
    }
    // A changed file with an equal data_version is applied (only a lower one is a rollback).
    const sameVersion = text({ data_version: '2026.1.0', notes: 'a note' })
    expect(planApply(manifestOf(2, [entry('XNYS', sameVersion, '2026.1.0')]), new Map([[sha256Hex(sameVersion), sameVersion]]), disk).ok).toBe(true)
  })

  test('a file edited after the last update is a local override: kept, until handed back (then written whatever its version)', () => {
    const edited = text({ data_version: '2026.1.5', notes: 'edited here' })
    const state: LocalState = { ...emptyState(), publisher: 'k', serial: 1, files: { XNYS: sha256Hex(local) } }
    const manifest = manifestOf(2, [entry('XNYS', newer, '2026.1.1')])
    const kept = planApply(manifest, new Map([[sha256Hex(newer), newer]]), view({ XNYS: sha256Hex(edited) }, { XNYS: '2026.1.5' }, state))
    expect(kept.ok && kept.plan).toEqual({ writes: [], overrides: ['XNYS'], unchanged: [], ignored: [] })
    const handedBack = planApply(manifest, new Map([[sha256Hex(newer), newer]]), view({ XNYS: sha256Hex(edited) }, { XNYS: '2026.1.5' }, { ...state, accept: ['XNYS'] }))
    expect(handedBack.ok && handedBack.plan.writes.map((write) => write.mic)).toEqual(['XNYS'])
    // The state after it: the hand-back done, the new hash recorded.
    if (!handedBack.ok) throw new Error(handedBack.refusal.detail)
    const after = stateAfter({ ...state, accept: ['XNYS', 'XLON'] }, manifest, 'k', handedBack.plan, Date.parse('2026-12-06T00:00:00Z'))
    expect(after).toMatchObject({ serial: 2, accept: ['XLON'], files: { XNYS: sha256Hex(newer) }, refused: null })
  })
})

describe('the journal: a crash in the middle of an apply', () => {
  const services: RunningService[] = []
  afterAll(async () => {
    for (const service of services) {
      service.process.kill('SIGTERM')
      await service.process.exited
    }
  })

  const oldNyse = scheduleFixture({ data_version: '2026.1.0' })
  const oldNasdaq = scheduleFixture({ mic: 'XNAS', sameAs: 'https://www.iso20022.org/market-identifier-codes#XNAS', data_version: '2026.1.0' })
  const newNyse = JSON.stringify(scheduleFixture({ data_version: '2026.1.1', holidays: { '2026-07-03': 'Independence Day (observed)' } }), null, 2)
  const newNasdaq = JSON.stringify(scheduleFixture({ mic: 'XNAS', sameAs: 'https://www.iso20022.org/market-identifier-codes#XNAS', data_version: '2026.1.1', holidays: { '2026-07-03': 'Independence Day (observed)' } }), null, 2)
  const writes = [{ mic: 'XNYS', sha256: sha256Hex(newNyse), body: newNyse }, { mic: 'XNAS', sha256: sha256Hex(newNasdaq), body: newNasdaq }]
  const state: LocalState = { ...emptyState(), publisher: 'k', serial: 2, files: { XNYS: sha256Hex(newNyse), XNAS: sha256Hex(newNasdaq) } }

  /** A directory as a crash after the first of two renames leaves it. */
  function crashedAfterFirstRename(): string {
    const dir = scheduleDir([oldNyse, oldNasdaq])
    expect(() => writeFiles(dir, writes, state, { afterRename: () => { throw new Error('power cut') } })).toThrow('power cut')
    expect(sha256Hex(readFileSync(join(dir, 'XNYS.json')))).toBe(writes[0]!.sha256)
    expect(JSON.parse(readFileSync(join(dir, 'XNAS.json'), 'utf8')).data_version).toBe('2026.1.0')
    expect(existsSync(join(dir, JOURNAL_FILE))).toBe(true)
    return dir
  }

  test('recovery finishes the renames and writes the state; an apply cut before its journal leaves nothing of it', () => {
    const dir = crashedAfterFirstRename()
    const log = memoryLogger()
    expect(recoverPendingApply(dir, log)).toBe(true)
    expect(sha256Hex(readFileSync(join(dir, 'XNAS.json')))).toBe(writes[1]!.sha256)
    expect(readLocalState(dir)).toMatchObject({ serial: 2, files: state.files })
    expect(readdirSync(dir).filter((name) => name.startsWith('.')).sort()).toEqual([STATE_FILE])
    expect(log.lines.some((line) => line.msg === 'an interrupted calendar update was finished before loading')).toBe(true)

    // Cut while writing the new files, before the journal: nothing of that apply happens.
    const early = scheduleDir([oldNyse, oldNasdaq])
    writeFileSync(join(early, '.XNYS.json.upstream'), newNyse)
    expect(recoverPendingApply(early, memoryLogger())).toBe(false)
    expect(JSON.parse(readFileSync(join(early, 'XNYS.json'), 'utf8')).data_version).toBe('2026.1.0')
    expect(readdirSync(early).filter((name) => name.startsWith('.'))).toEqual([])
  })

  test('the service started over a crashed directory serves the whole manifest from its first answer', async () => {
    const dir = crashedAfterFirstRename()
    const service = await startService({ SCHEDULES_DIR: dir, DATA_DIR: tempDir() }, { startMs: 60_000 })
    services.push(service)
    const health = (await (await fetch(`${service.base}/v5/health`)).json()) as { calendars: { data_versions: Record<string, string | null> } }
    expect(health.calendars.data_versions.XNYS).toBe('2026.1.1')
    expect(health.calendars.data_versions.XNAS).toBe('2026.1.1')
    expect(existsSync(join(dir, JOURNAL_FILE))).toBe(false)
  }, 90_000)
})

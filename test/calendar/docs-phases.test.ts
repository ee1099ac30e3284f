// docs/calendars.md carries the per-venue phase table generated from the schedule files
// (`openbell calendars phases`); this keeps the documentation from drifting from the data.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { readScheduleDir } from '../../src/calendar/files'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { phaseTable } from '../../src/calendar/phase-table'

const ROOT = join(import.meta.dir, '..', '..')

describe('docs/calendars.md phase table', () => {
  test('matches the schedule files (regenerate with `openbell calendars phases`)', () => {
    const files = readScheduleDir(join(ROOT, 'schedules')).flatMap((entry) => (entry.result.ok ? [entry.result.file] : []))
    expect(files.map((file) => file.mic).sort()).toEqual([...SUPPORTED_MICS].sort())
    const docs = readFileSync(join(ROOT, 'docs', 'calendars.md'), 'utf8')
    const match = docs.match(/<!-- phase-table:start -->\n([\s\S]*?)\n<!-- phase-table:end -->/)
    expect(match).not.toBeNull()
    expect(match![1]).toBe(phaseTable(files))
  })

  test('a file with phases shows its bands, seasons, dates and trading-phases source', () => {
    const fixtures = readScheduleDir(join(ROOT, 'test', 'fixtures', 'phases')).flatMap((entry) => (entry.result.ok ? [entry.result.file] : []))
    const row = phaseTable(fixtures).split('\n').find((line) => line.startsWith('| XLON '))!
    expect(row).toContain('closing_auction close–close+5')
    expect(row).toContain('Summer test hours (2026-07-01 to 2026-08-31)')
    expect(row).toContain("2026-12-31 New Year's Eve: no auctions: none")
    expect(row).toContain('openbell tests: trading phases')
    expect(phaseTable(fixtures.map((file) => ({ ...file, phases: undefined })))).toContain('| XLON | none entered |')
  })
})

// docs/calendars.md carries tables generated from the schedule files: the basis by year
// (`openbell calendars basis`) and the trading phases (`openbell calendars phases`); this keeps
// the documentation from drifting from the data.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { basisTable } from '../../src/calendar/basis-table'
import { readScheduleDir } from '../../src/calendar/files'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { phaseTable } from '../../src/calendar/phase-table'

const ROOT = join(import.meta.dir, '..', '..')
const validFiles = (dir: string) => readScheduleDir(dir).flatMap((entry) => (entry.result.ok ? [entry.result.file] : []))

/** The generated part of docs/calendars.md between `<!-- name:start -->` and `<!-- name:end -->`. */
function docsSection(name: string): string {
  const docs = readFileSync(join(ROOT, 'docs', 'calendars.md'), 'utf8')
  const match = docs.match(new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)\\n<!-- ${name}:end -->`))
  expect(match).not.toBeNull()
  return match![1]!
}

describe('docs/calendars.md generated tables', () => {
  test('match the schedule files (regenerate with `openbell calendars basis` and `openbell calendars phases`)', () => {
    const files = validFiles(join(ROOT, 'schedules'))
    expect(files.map((file) => file.mic).sort()).toEqual([...SUPPORTED_MICS].sort())
    expect(docsSection('basis-table')).toBe(basisTable(files))
    expect(docsSection('phase-table')).toBe(phaseTable(files))
  })

  test('a version 2 year marked rule shows as rule, a version 1 file as published', () => {
    const hel = validFiles(join(ROOT, 'schedules')).find((file) => file.mic === 'XHEL')!
    expect(basisTable([hel])).toContain('2027 rule')
    const asV1 = { ...hel, schema_version: 1 as const, basis: undefined, basis_exceptions: undefined }
    expect(basisTable([asV1])).toContain('2027 published')
  })

  test('a file with phases shows its bands, seasons, dates and trading-phases source', () => {
    const fixtures = validFiles(join(ROOT, 'test', 'fixtures', 'phases'))
    const row = phaseTable(fixtures).split('\n').find((line) => line.startsWith('| XLON '))!
    expect(row).toContain('closing_auction close–close+5')
    expect(row).toContain('Summer test hours (2026-07-01 to 2026-08-31)')
    expect(row).toContain("2026-12-31 New Year's Eve: no auctions: none")
    expect(row).toContain('openbell tests: trading phases')
    expect(phaseTable(fixtures.map((file) => ({ ...file, phases: undefined })))).toContain('| XLON | none entered |')
  })
})

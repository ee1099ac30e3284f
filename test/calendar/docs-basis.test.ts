// docs/calendars.md carries the basis-by-year table generated from the schedule files
// (`openbell calendars basis`); this keeps the documentation from drifting from the data.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { basisTable } from '../../src/calendar/basis-table'
import { readScheduleDir } from '../../src/calendar/files'
import { SUPPORTED_MICS } from '../../src/calendar/mics'

const ROOT = join(import.meta.dir, '..', '..')

describe('docs/calendars.md basis table', () => {
  test('matches the schedule files (regenerate with `openbell calendars basis`)', () => {
    const files = readScheduleDir(join(ROOT, 'schedules')).flatMap((entry) => (entry.result.ok ? [entry.result.file] : []))
    expect(files.map((file) => file.mic).sort()).toEqual([...SUPPORTED_MICS].sort())
    const docs = readFileSync(join(ROOT, 'docs', 'calendars.md'), 'utf8')
    const match = docs.match(/<!-- basis-table:start -->\n([\s\S]*?)\n<!-- basis-table:end -->/)
    expect(match).not.toBeNull()
    expect(match![1]).toBe(basisTable(files))
  })

  test('a version 2 year marked rule shows as rule, a version 1 file as published', () => {
    const files = readScheduleDir(join(ROOT, 'schedules')).flatMap((entry) => (entry.result.ok ? [entry.result.file] : []))
    const hel = files.find((file) => file.mic === 'XHEL')!
    expect(basisTable([hel])).toContain('2027 rule')
    const asV1 = { ...hel, schema_version: 1 as const, basis: undefined, basis_exceptions: undefined }
    expect(basisTable([asV1])).toContain('2027 published')
  })
})

// Trading phases (schema_version 3): validation of the `phases` member, and the phase the engine
// gives at an instant, on fixture files in test/fixtures/phases (test data, not an exchange's).
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileCalendar } from '../../src/calendar/compile'
import { phaseAt, statusAt } from '../../src/calendar/engine'
import type { ScheduleFile } from '../../src/calendar/schema'
import { validateSchedule } from '../../src/calendar/validate'
import { readScheduleDir } from '../../src/calendar/files'
import { REPO_SCHEDULES } from '../helpers/app'
import { compiledFixture, scheduleFixture } from '../helpers/calendars'

const FIXTURES = join(import.meta.dir, '..', 'fixtures', 'phases')
const fixture = (mic: string) => JSON.parse(readFileSync(join(FIXTURES, `${mic}.json`), 'utf8')) as ScheduleFile
const at = (iso: string) => Date.parse(iso)

function compiled(file: ScheduleFile) {
  const result = validateSchedule(file, file.mic)
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return compileCalendar(result.file)
}

/** Problems of the London fixture with its phases replaced (or the file changed). */
function problemsWith(change: (file: ScheduleFile) => void) {
  const file = structuredClone(fixture('XLON'))
  change(file)
  const result = validateSchedule(file, 'XLON')
  return result.ok ? [] : result.problems
}

describe('phases on the London fixture (bands anchored to the open and close)', () => {
  const london = compiled(fixture('XLON'))
  const cases: [string, string, 'OPEN' | 'CLOSED' | 'UNKNOWN', string | null][] = [
    ['regular day: 16:32 is the closing auction, status CLOSED', '2026-11-25T16:32:00Z', 'CLOSED', 'closing_auction'],
    ['regular day: the close itself starts the auction', '2026-11-25T16:30:00Z', 'CLOSED', 'closing_auction'],
    ['regular day: the last minute of continuous trading', '2026-11-25T16:29:59Z', 'OPEN', 'continuous'],
    ['regular day: post-close after the auction', '2026-11-25T16:36:00Z', 'CLOSED', 'post_close'],
    ['regular day: after the post-close', '2026-11-25T16:45:00Z', 'CLOSED', 'closed'],
    ['regular day: pre-open from a fixed time to the open', '2026-11-25T07:55:00Z', 'CLOSED', 'pre_open_auction'],
    ['regular day: before the pre-open', '2026-11-25T07:49:00Z', 'CLOSED', 'closed'],
    ['early close day: the closing auction moves to 12:30', '2026-12-24T12:32:00Z', 'CLOSED', 'closing_auction'],
    ['early close day: post-close follows it', '2026-12-24T12:40:00Z', 'CLOSED', 'post_close'],
    ['early close day: 16:32 is closed', '2026-12-24T16:32:00Z', 'CLOSED', 'closed'],
    ['late open day: the pre-open runs up to the late open', '2026-06-15T08:30:00Z', 'CLOSED', 'pre_open_auction'],
    ['summer season (BST): pre-open is open-15', '2026-07-15T06:50:00Z', 'CLOSED', 'pre_open_auction'],
    ['summer season: 07:44 local is before it', '2026-07-15T06:44:00Z', 'CLOSED', 'closed'],
    ['summer season: the closing auction at 16:32 BST', '2026-07-15T15:32:00Z', 'CLOSED', 'closing_auction'],
    ['summer season has no post-close', '2026-07-15T15:40:00Z', 'CLOSED', 'closed'],
    ['after the spring change (BST), default bands in local time', '2026-03-30T15:32:00Z', 'CLOSED', 'closing_auction'],
    ['a dated entry replaces the bands: a longer auction', '2026-03-20T16:38:00Z', 'CLOSED', 'closing_auction'],
    ['a dated entry with empty bands: no phases that day', '2026-12-31T12:32:00Z', 'CLOSED', 'closed'],
    ['holiday: no phase', '2026-12-25T16:32:00Z', 'CLOSED', 'closed'],
    ['weekend: no phase', '2026-11-28T16:32:00Z', 'CLOSED', 'closed'],
    ['provisional day: UNKNOWN, phase null', '2026-11-02T16:32:00Z', 'UNKNOWN', null],
    ['outside coverage: UNKNOWN, phase null', '2027-01-04T16:32:00Z', 'UNKNOWN', null],
  ]
  for (const [name, when, status, phase] of cases) {
    test(name, () => {
      expect(statusAt(london, at(when)).status).toBe(status)
      expect(phaseAt(london, at(when))).toBe(phase as never)
    })
  }

  test('phases never change the status: every instant of the year keeps the status of the same file without phases', () => {
    const file = fixture('XLON')
    const withoutPhases = compiled({ ...file, phases: undefined })
    expect(withoutPhases.bands).toBeNull()
    for (let instant = at('2026-01-01T00:00:00Z'); instant < at('2027-01-01T00:00:00Z'); instant += 7 * 60_000) {
      const status = statusAt(london, instant).status
      expect(status).toBe(statusAt(withoutPhases, instant).status)
      const phase = phaseAt(london, instant)
      if (status === 'UNKNOWN') expect(phase).toBeNull()
      else if (status === 'OPEN') expect(phase).toBe('continuous')
      else expect(phase).not.toBe('continuous')
    }
  })
})

describe('a band inside an open segment (the Tokyo fixture)', () => {
  const tokyo = compiled(fixture('XJPX'))
  test('wins the phase while the status stays OPEN', () => {
    expect(statusAt(tokyo, at('2026-11-25T06:27:00Z')).status).toBe('OPEN') // 15:27 JST
    expect(phaseAt(tokyo, at('2026-11-25T06:27:00Z'))).toBe('closing_auction')
    expect(phaseAt(tokyo, at('2026-11-25T06:24:00Z'))).toBe('continuous')
    expect(statusAt(tokyo, at('2026-11-25T06:30:00Z')).status).toBe('CLOSED')
    expect(phaseAt(tokyo, at('2026-11-25T06:30:00Z'))).toBe('closed')
  })
  test('the lunch break is closed; the pre-open ends at the first open only', () => {
    expect(phaseAt(tokyo, at('2026-11-25T02:45:00Z'))).toBe('closed') // 11:45 JST
    expect(phaseAt(tokyo, at('2026-11-24T23:30:00Z'))).toBe('pre_open_auction') // 08:30 JST
    expect(phaseAt(tokyo, at('2026-11-23T06:27:00Z'))).toBe('closed') // holiday
  })
})

describe('versions 1 and 2 load unchanged', () => {
  test('every repository file validates; files without phases compile with no bands and phase = status', () => {
    const results = readScheduleDir(REPO_SCHEDULES)
    expect(results.filter((entry) => !entry.result.ok).map((entry) => entry.mic)).toEqual([])
    const v1 = compiledFixture({ holidays: { '2026-07-03': 'x' } })
    expect(v1.bands).toBeNull()
    expect(phaseAt(v1, at('2026-03-02T15:00:00Z'))).toBe('continuous')
    expect(phaseAt(v1, at('2026-03-02T21:02:00Z'))).toBe('closed')
    expect(phaseAt(v1, at('2027-03-02T15:00:00Z'))).toBeNull()
  })
})

describe('validation of phases', () => {
  const find = (problems: { path: string; reason: string }[], path: string) => problems.find((problem) => problem.path === path)

  test('the fixtures are valid; a date entry on a day without trading loads with a warning', () => {
    expect(problemsWith(() => {})).toEqual([])
    const file = fixture('XLON')
    file.phases!.dates!['2026-12-25'] = { name: 'x', bands: [] }
    const result = validateSchedule(file, 'XLON')
    expect(result.ok).toBe(true)
    if (result.ok) expect(result.warnings.map((warning) => warning.path)).toEqual(['/phases/dates/2026-12-25'])
  })

  test('overlapping bands are refused, naming the band', () => {
    const problems = problemsWith((file) => file.phases!.bands.push({ phase: 'extended', from: '16:00', to: '17:00' }))
    const problem = find(problems, '/phases/bands/1')
    expect(problem, JSON.stringify(problems)).toBeDefined()
    expect(problem!.reason).toMatch(/overlaps band 3 \(extended 16:00-17:00\)/)
    expect(problem!.reason).toMatch(/more days/)
    // The post-close 16:35-16:45 touches the auction but lies inside the long band too.
    expect(find(problems, '/phases/bands/2')?.reason).toMatch(/overlaps band 3/)
  })

  test('a band that overlaps only on an early-close day is refused with that date', () => {
    const problems = problemsWith((file) => file.phases!.bands.push({ phase: 'extended', from: '12:00', to: '12:31' }))
    expect(problems.map((problem) => problem.path)).toEqual(['/phases/bands/1'])
    expect(problems[0]!.reason).toMatch(/on 2026-12-24 \(early close: Christmas Eve\) to 12:30-12:35, which overlaps band 3/)
  })

  test('a band that does not resolve to from < to inside the local day is refused', () => {
    expect(find(problemsWith((file) => (file.phases!.bands[2]!.to = 'close+600')), '/phases/bands/2')?.reason).toMatch(/outside the local day/)
    expect(find(problemsWith((file) => (file.phases!.bands[0]!.from = '08:30')), '/phases/bands/0')?.reason).toMatch(/does not end after it starts/)
    expect(find(problemsWith((file) => (file.phases!.dates!['2026-03-20']!.bands[0]!.to = 'open')), '/phases/dates/2026-03-20/bands/0')?.reason).toMatch(/on 2026-03-20 to 16:30-08:00/)
    expect(find(problemsWith((file) => file.phases!.seasons![0]!.bands.push({ phase: 'extended', from: '20:00', to: '19:00' })), '/phases/seasons/0/bands/2')?.reason).toMatch(/does not end after it starts/)
  })

  test('offsets are whole minutes 1..720; the phase is one of four; no unknown members', () => {
    expect(find(problemsWith((file) => (file.phases!.bands[1]!.to = 'close+721')), '/phases/bands/1/to')?.reason).toMatch(/outside 1\.\.720/)
    expect(find(problemsWith((file) => (file.phases!.bands[1]!.to = 'close+0')), '/phases/bands/1/to')?.reason).toMatch(/outside 1\.\.720/)
    expect(find(problemsWith((file) => (file.phases!.bands[1]!.to = 'close+5m')), '/phases/bands/1/to')).toBeDefined()
    expect(find(problemsWith((file) => ((file.phases!.bands[1] as { phase: string }).phase = 'continuous')), '/phases/bands/1/phase')).toBeDefined()
    expect(find(problemsWith((file) => ((file.phases as Record<string, unknown>).weekly = {})), '/phases')).toBeDefined()
  })

  test('phases need schema_version 3, a trading-phases source, and a venue that closes', () => {
    expect(find(problemsWith((file) => ((file as { schema_version: number }).schema_version = 2)), '/phases')?.reason).toMatch(/needs schema_version 3/)
    expect(find(problemsWith((file) => file.sources.splice(1, 1)), '/sources')?.reason).toMatch(/trading phases/)
    const always = ['00:00', '24:00'] as [string, string]
    const week = { mon: [always], tue: [always], wed: [always], thu: [always], fri: [always], sat: [always], sun: [always] }
    const result = validateSchedule(scheduleFixture({ mic: 'XCOI', timezone: 'UTC', sameAs: 'https://x/#XCOI', always_open: true, coverage: undefined, weekly: week, schema_version: 3 as never, phases: { bands: [] } } as never), 'XCOI')
    expect(result.ok ? [] : result.problems.map((problem) => problem.path)).toContain('/phases')
  })

  test('phase seasons and dates: real, inside coverage, seasons not overlapping', () => {
    const season = (from: string, to: string) => ({ from, to, name: 's', bands: [] })
    expect(find(problemsWith((file) => file.phases!.seasons!.push(season('2026-08-01', '2026-09-30'))), '/phases/seasons/1')?.reason).toMatch(/overlaps another phase season/)
    expect(find(problemsWith((file) => file.phases!.seasons!.push(season('2026-12-01', '2027-01-31'))), '/phases/seasons/1')?.reason).toMatch(/not inside coverage/)
    expect(find(problemsWith((file) => file.phases!.seasons!.push(season('2026-10-31', '2026-10-01'))), '/phases/seasons/1')?.reason).toMatch(/after/)
    expect(find(problemsWith((file) => (file.phases!.dates!['2026-02-30'] = { name: 'x', bands: [] })), '/phases/dates/2026-02-30')?.reason).toMatch(/not a calendar date/)
    expect(find(problemsWith((file) => (file.phases!.dates!['2027-01-04'] = { name: 'x', bands: [] })), '/phases/dates/2027-01-04')?.reason).toMatch(/outside coverage/)
  })
})

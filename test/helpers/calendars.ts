// Synthetic schedule files for engine and reload tests, independent of the real calendars.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ScheduleFile } from '../../src/calendar/schema'
import { compileCalendar, type CompiledCalendar } from '../../src/calendar/compile'
// statusAt through the listed-day check: each fact looked up here is also checked against the day /v5/calendar lists.
import { statusAt } from './listed-days'
import { dayNumber, localToUtc, parseLocalTime } from '../../src/calendar/zone'
import { validateSchedule } from '../../src/calendar/validate'
import { tempDir } from './app'

const weekdays = (segments: [string, string][]) => ({ mon: segments, tue: segments, wed: segments, thu: segments, fri: segments, sat: [], sun: [] })

/** A New York venue 09:30-16:00 Monday to Friday over 2026, plus whatever the test overrides. */
export function scheduleFixture(overrides: Partial<ScheduleFile> = {}): ScheduleFile {
  return {
    schema_version: 1,
    data_version: '2026.1.0',
    mic: 'XNYS',
    name: 'Test Exchange',
    country: 'US',
    currency: 'USD',
    timezone: 'America/New_York',
    sameAs: 'https://www.iso20022.org/market-identifier-codes#XNYS',
    always_open: false,
    coverage: { from: '2026-01-01', to: '2026-12-31' },
    sources: [{ covers: 'test', publisher: 'test' }],
    weekly: weekdays([['09:30', '16:00']]),
    holidays: {},
    early_closes: {},
    late_opens: {},
    special_sessions: {},
    ...overrides,
  } as ScheduleFile
}

export { weekdays }

export function compiledFixture(overrides: Partial<ScheduleFile> = {}) {
  const result = validateSchedule(scheduleFixture(overrides), overrides.mic ?? 'XNYS')
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return compileCalendar(result.file)
}

/** Writes files the way editors do: a temp file, then a rename over the target. */
export function writeSchedule(dir: string, file: ScheduleFile | string, mic?: string): void {
  const name = `${mic ?? (typeof file === 'string' ? 'XNYS' : file.mic)}.json`
  const temp = join(dir, `.${name}.tmp`)
  writeFileSync(temp, typeof file === 'string' ? file : JSON.stringify(file, null, 2))
  renameSync(temp, join(dir, name))
}

export function scheduleDir(files: ScheduleFile[]): string {
  const dir = tempDir('openbell-schedules-')
  mkdirSync(dir, { recursive: true })
  for (const file of files) writeSchedule(dir, file)
  return dir
}

/** Look-ups on loaded calendars by a venue's local wall time, written `YYYY-MM-DD HH:MM`. */
export function localLookups(calendars: { calendar(mic: string): CompiledCalendar | null | undefined }) {
  const calendarOf = (mic: string): CompiledCalendar => {
    const calendar = calendars.calendar(mic)
    if (!calendar) throw new Error(`${mic} did not load`)
    return calendar
  }
  const localInstant = (mic: string, local: string): number => {
    const [date, time] = local.split(' ')
    return localToUtc(calendarOf(mic).timezone, dayNumber(date!), parseLocalTime(time!))
  }
  const statusOf = (mic: string, local: string) => statusAt(calendarOf(mic), localInstant(mic, local))
  return { calendarOf, localInstant, statusOf }
}

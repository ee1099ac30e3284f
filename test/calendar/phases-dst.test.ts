// Phase bands on trading days when the venue's zone changes clocks: computed in the offset in
// force at each band, not the one of local midnight or of the day before. No real venue with
// phases trades on such a day, so the fixture test/fixtures/phases/XTAE.json does: Israel moves
// its clocks at 02:00 local on Friday 27 March 2026 (+02:00 → +03:00, a trading day) and on
// Sunday 25 October 2026 (+03:00 → +02:00, a special session in the fixture). Expected instants
// are written out by hand from those offsets; each day is checked in the compiled bands (the
// engine's phase at every edge, and the band table itself), in /v5/calendar's day record and
// in /v5/historical and /v5/schedule.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileCalendar } from '../../src/calendar/compile'
import { phaseAt, statusAt } from '../../src/calendar/engine'
import { BAND_PHASES } from '../../src/calendar/phases'
import type { ScheduleFile } from '../../src/calendar/schema'
import { validateSchedule } from '../../src/calendar/validate'
import { makeTestApp } from '../helpers/app'

const FIXTURES = join(import.meta.dir, '..', 'fixtures', 'phases')
const file = JSON.parse(readFileSync(join(FIXTURES, 'XTAE.json'), 'utf8')) as ScheduleFile
const validated = validateSchedule(file, 'XTAE')
if (!validated.ok) throw new Error(JSON.stringify(validated.problems))
const calendar = compileCalendar(validated.file)

type Span = [phase: string, from: string, to: string]

/** Each day's phases in UTC, from the day's offset: local 09:30 pre-open, open 10:00, close, close+5, close+15. */
const DAYS: { date: string; offset: string; why: string; spans: Span[] }[] = [
  {
    date: '2026-03-26',
    offset: '+02:00',
    why: 'Thursday before the spring change (control)',
    spans: [['pre_open_auction', '07:30', '08:00'], ['continuous', '08:00', '15:15'], ['closing_auction', '15:15', '15:20'], ['post_close', '15:20', '15:30']],
  },
  {
    date: '2026-03-27',
    offset: '+03:00',
    why: 'Friday, clocks forward at 02:00 local: midnight was +02:00, the session is +03:00',
    spans: [['pre_open_auction', '06:30', '07:00'], ['continuous', '07:00', '11:00'], ['closing_auction', '11:00', '11:05'], ['post_close', '11:05', '11:15']],
  },
  {
    date: '2026-10-23',
    offset: '+03:00',
    why: 'Friday before the autumn change (control)',
    spans: [['pre_open_auction', '06:30', '07:00'], ['continuous', '07:00', '11:00'], ['closing_auction', '11:00', '11:05'], ['post_close', '11:05', '11:15']],
  },
  {
    date: '2026-10-25',
    offset: '+02:00',
    why: 'Sunday special session, clocks back at 02:00 local: midnight was +03:00, the session is +02:00',
    spans: [['pre_open_auction', '07:30', '08:00'], ['continuous', '08:00', '12:00'], ['closing_auction', '12:00', '12:05'], ['post_close', '12:05', '12:15']],
  },
]

const utc = (date: string, time: string) => Date.parse(`${date}T${time}:00.000Z`)

describe('phase bands on days the zone changes clocks (fixture XTAE, Asia/Jerusalem)', () => {
  test('the fixture really has the clock changes on those trading days', () => {
    // Midnight's offset differs from the session's on the two change days only.
    const offset = (ms: number) => new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Jerusalem', timeZoneName: 'longOffset' }).format(ms).slice(-6)
    expect(offset(utc('2026-03-26', '22:30'))).toBe('+02:00') // 00:30 on the 27th
    expect(offset(utc('2026-03-27', '06:30'))).toBe('+03:00')
    expect(offset(utc('2026-10-24', '21:30'))).toBe('+03:00') // 00:30 on the 25th
    expect(offset(utc('2026-10-25', '07:30'))).toBe('+02:00')
    for (const day of DAYS) expect(statusAt(calendar, utc(day.date, day.spans[1]![1])).status).toBe('OPEN')
  })

  for (const day of DAYS) {
    test(`${day.date} (${day.why}): the engine's phase changes exactly at each band edge`, () => {
      for (const [phase, from, to] of day.spans) {
        const [start, end] = [utc(day.date, from), utc(day.date, to)]
        expect({ at: `${day.date}T${from}Z`, phase: phaseAt(calendar, start) }).toEqual({ at: `${day.date}T${from}Z`, phase: phase as never })
        expect({ at: `${day.date}T${to}Z - 1 ms`, phase: phaseAt(calendar, end - 1) }).toEqual({ at: `${day.date}T${to}Z - 1 ms`, phase: phase as never })
      }
      // Before the pre-open and after the post-close: closed.
      expect(phaseAt(calendar, utc(day.date, day.spans[0]![1]) - 1)).toBe('closed')
      expect(phaseAt(calendar, utc(day.date, day.spans.at(-1)![2]))).toBe('closed')
    })
  }

  test('the compiled band table holds exactly these bands for those days', () => {
    const bands = calendar.bands!
    for (const day of DAYS) {
      const dayStart = utc(day.date, '00:00') - 6 * 3_600_000
      const dayEnd = dayStart + 36 * 3_600_000
      const found: Span[] = []
      for (let i = 0; i < bands.starts.length; i++) {
        if (bands.starts[i]! < dayStart || bands.starts[i]! >= dayEnd) continue
        found.push([BAND_PHASES[bands.codes[i]!]!, new Date(bands.starts[i]!).toISOString().slice(11, 16), new Date(bands.ends[i]!).toISOString().slice(11, 16)])
      }
      expect({ date: day.date, bands: found }).toEqual({ date: day.date, bands: day.spans.filter(([phase]) => phase !== 'continuous') })
    }
  })

  test('/v5/calendar lists the same phases in UTC (local times unchanged), and /v5/historical and /v5/schedule name them', async () => {
    const app = makeTestApp({ now: '2026-03-27T11:02:00.000Z', schedulesDir: FIXTURES })
    for (const day of DAYS) {
      const { status, body } = await app.json(`/v5/calendar?mic=XTAE&from=${day.date}&to=${day.date}`)
      expect(status).toBe(200)
      const phases = (body.days[0].phases as { phase: string; from: string; to: string; from_local: string }[]).map((p) => [p.phase, p.from.slice(11, 16), p.to.slice(11, 16)])
      expect({ date: day.date, phases }).toEqual({ date: day.date, phases: day.spans })
      expect(body.days[0].phases[0].from_local).toBe('09:30')
      for (const [phase, from] of day.spans) {
        const historical = (await app.json(`/v5/historical?mic=XTAE&at=${day.date}T${from}:00Z`)).body
        expect({ at: `${day.date}T${from}Z`, phase: historical.phase, offset: historical.reasoning.utc_offset }).toEqual({ at: `${day.date}T${from}Z`, phase, offset: `UTC${day.offset}` })
      }
    }
    // The fixed clock is inside the spring Friday's closing auction (11:00–11:05 UTC).
    const schedule = (await app.json('/v5/schedule?mic=XTAE')).body
    expect({ status: schedule.current_status, phase: schedule.phase, until: schedule.phase_until }).toEqual({ status: 'CLOSED', phase: 'closing_auction', until: '2026-03-27T11:05:00.000Z' })
  })
})

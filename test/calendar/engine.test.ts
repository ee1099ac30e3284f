import { describe, expect, test } from 'bun:test'
import { nextClose, nextOpen, statusAt } from '../../src/calendar/engine'
import { lunchBreak, planDay } from '../../src/calendar/day-plan'
import { dayNumber } from '../../src/calendar/zone'
import { compiledFixture, weekdays } from '../helpers/calendars'

const at = (iso: string) => Date.parse(iso)
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

describe('statusAt on a synthetic New York venue', () => {
  const calendar = compiledFixture({
    holidays: { '2026-07-03': 'Independence Day (observed)' },
    early_closes: { '2026-11-27': { close: '13:00', name: 'Day after Thanksgiving' } },
    late_opens: { '2026-01-02': { open: '11:00', name: 'Late start' } },
    special_sessions: { '2026-06-06': { segments: [['10:00', '11:00']], name: 'Saturday drill' }, '2026-06-08': { segments: [], name: 'Systems upgrade' } },
  })

  const cases: [string, string, string][] = [
    ['2026-03-02T14:31:00Z', 'OPEN', 'regular session'], // 09:31 EST
    ['2026-03-02T14:29:00Z', 'CLOSED', 'before open'],
    ['2026-03-02T20:59:00Z', 'OPEN', 'regular session'], // 15:59 EST
    ['2026-03-02T21:00:00Z', 'CLOSED', 'after close'], // 16:00 EST: [start, end)
    ['2026-03-02T14:30:00Z', 'OPEN', 'regular session'], // exactly the open
    ['2026-03-09T13:31:00Z', 'OPEN', 'regular session'], // 09:31 EDT, after spring forward
    ['2026-03-09T14:29:00Z', 'OPEN', 'regular session'],
    ['2026-03-07T17:00:00Z', 'CLOSED', 'weekend'],
    ['2026-07-03T16:00:00Z', 'CLOSED', 'holiday: Independence Day (observed)'],
    ['2026-11-27T17:59:00Z', 'OPEN', 'early close day (Day after Thanksgiving): regular session'],
    ['2026-11-27T18:01:00Z', 'CLOSED', 'after close (early close at 13:00: Day after Thanksgiving)'],
    ['2026-01-02T15:59:00Z', 'CLOSED', 'before open (late open at 11:00: Late start)'],
    ['2026-01-02T16:01:00Z', 'OPEN', 'late open (Late start): regular session'],
    ['2026-06-06T14:30:00Z', 'OPEN', 'special session (Saturday drill)'],
    ['2026-06-08T15:00:00Z', 'CLOSED', 'no trading (Systems upgrade)'],
  ]
  for (const [when, status, reason] of cases) {
    test(`${when} → ${status} (${reason})`, () => {
      expect(statusAt(calendar, at(when))).toEqual({ status: status as 'OPEN', reason })
    })
  }

  test('UNKNOWN outside coverage, on both sides, and for a non-finite instant', () => {
    expect(statusAt(calendar, at('2027-01-01T15:00:00Z')).status).toBe('UNKNOWN')
    expect(statusAt(calendar, at('2027-01-01T15:00:00Z')).reason).toMatch(/outside calendar coverage/)
    expect(statusAt(calendar, at('2025-12-31T15:00:00Z')).status).toBe('UNKNOWN')
    // The last covered local day is covered to its local midnight (05:00Z on Jan 1).
    expect(statusAt(calendar, at('2027-01-01T04:59:00Z')).status).toBe('CLOSED')
    expect(statusAt(calendar, at('2027-01-01T05:00:00Z')).status).toBe('UNKNOWN')
    expect(statusAt(calendar, Number.NaN).status).toBe('UNKNOWN')
  })

  test('next open and close across a holiday weekend and a DST change', () => {
    // Thursday 2 July, after close: Friday 3 July is a holiday, then the weekend.
    expect(iso(nextOpen(calendar, at('2026-07-02T21:00:00Z')))).toBe('2026-07-06T13:30:00.000Z')
    expect(iso(nextClose(calendar, at('2026-07-02T21:00:00Z')))).toBe('2026-07-06T20:00:00.000Z')
    // Friday 6 March (EST) to Monday 9 March (EDT): the UTC open moves an hour earlier.
    expect(iso(nextOpen(calendar, at('2026-03-06T21:30:00Z')))).toBe('2026-03-09T13:30:00.000Z')
    // While open: close today, open tomorrow.
    expect(iso(nextClose(calendar, at('2026-03-02T15:00:00Z')))).toBe('2026-03-02T21:00:00.000Z')
    expect(iso(nextOpen(calendar, at('2026-03-02T15:00:00Z')))).toBe('2026-03-03T14:30:00.000Z')
    // No next open inside coverage at the year end.
    expect(nextOpen(calendar, at('2026-12-31T22:00:00Z'))).toBeNull()
    expect(nextClose(calendar, at('2026-12-31T22:00:00Z'))).toBeNull()
  })
})

describe('lunch breaks, midnight-crossing sessions and seasons', () => {
  test('a lunch break is CLOSED and reported; next open crosses it', () => {
    const calendar = compiledFixture({ mic: 'XJPX', timezone: 'Asia/Tokyo', sameAs: 'https://x/#XJPX', weekly: weekdays([['09:00', '11:30'], ['12:30', '15:30']]) })
    expect(statusAt(calendar, at('2026-03-02T02:29:00Z'))).toEqual({ status: 'OPEN', reason: 'regular session' }) // 11:29 JST
    expect(statusAt(calendar, at('2026-03-02T02:31:00Z'))).toEqual({ status: 'CLOSED', reason: 'lunch break' })
    expect(statusAt(calendar, at('2026-03-02T03:30:00Z'))).toEqual({ status: 'OPEN', reason: 'regular session' })
    expect(iso(nextOpen(calendar, at('2026-03-02T02:45:00Z')))).toBe('2026-03-02T03:30:00.000Z')
    expect(iso(nextClose(calendar, at('2026-03-02T00:30:00Z')))).toBe('2026-03-02T02:30:00.000Z')
    expect(lunchBreak(planDay(calendar.file, dayNumber('2026-03-02')))).toEqual({ start: 690, end: 750 })
  })

  test('a Sunday-to-Friday session with a daily break is one open run across midnight', () => {
    const calendar = compiledFixture({
      mic: 'XCBT',
      timezone: 'America/Chicago',
      sameAs: 'https://x/#XCBT',
      weekly: { sun: [['17:00', '24:00']], mon: [['00:00', '16:00'], ['17:00', '24:00']], tue: [['00:00', '16:00'], ['17:00', '24:00']], wed: [['00:00', '16:00'], ['17:00', '24:00']], thu: [['00:00', '16:00'], ['17:00', '24:00']], fri: [['00:00', '16:00']], sat: [] },
    })
    // Sunday 1 March 18:00 CST = 2 March 00:00Z: open; the run lasts until Monday 16:00 CST.
    expect(statusAt(calendar, at('2026-03-02T00:00:00Z')).status).toBe('OPEN')
    expect(iso(nextClose(calendar, at('2026-03-02T00:00:00Z')))).toBe('2026-03-02T22:00:00.000Z')
    expect(statusAt(calendar, at('2026-03-02T22:30:00Z'))).toEqual({ status: 'CLOSED', reason: 'trading break' })
    expect(lunchBreak(planDay(calendar.file, dayNumber('2026-03-02')))).toBeNull()
    // Friday after 16:00 CT until Sunday 17:00 CT is closed.
    expect(statusAt(calendar, at('2026-03-06T22:01:00Z')).status).toBe('CLOSED')
    expect(statusAt(calendar, at('2026-03-07T18:00:00Z')).status).toBe('CLOSED')
    expect(iso(nextOpen(calendar, at('2026-03-06T22:01:00Z')))).toBe('2026-03-08T22:00:00.000Z') // Sunday 17:00 CDT
  })

  test('seasons replace the weekly template for their dates', () => {
    const calendar = compiledFixture({
      mic: 'XBSP',
      timezone: 'America/Sao_Paulo',
      sameAs: 'https://x/#XBSP',
      weekly: weekdays([['10:00', '18:00']]),
      seasons: [{ from: '2026-03-09', to: '2026-11-01', name: 'US daylight saving', weekly: weekdays([['10:00', '17:00']]) }],
    })
    expect(statusAt(calendar, at('2026-03-06T20:30:00Z')).status).toBe('OPEN') // 17:30 BRT, before the season
    expect(statusAt(calendar, at('2026-03-09T20:30:00Z')).status).toBe('CLOSED') // 17:30 BRT, in the season
    expect(planDay(calendar.file, dayNumber('2026-03-09')).season).toBe('US daylight saving')
  })

  test('southern-hemisphere DST (Sydney) and a :30 offset (Kolkata)', () => {
    const sydney = compiledFixture({ mic: 'XASX', timezone: 'Australia/Sydney', sameAs: 'https://x/#XASX', weekly: weekdays([['10:00', '16:00']]) })
    expect(iso(nextOpen(sydney, at('2026-04-02T06:00:00Z')))).toBe('2026-04-02T23:00:00.000Z') // Fri 3 Apr 10:00 AEDT
    expect(iso(nextOpen(sydney, at('2026-04-05T12:00:00Z')))).toBe('2026-04-06T00:00:00.000Z') // Mon 6 Apr 10:00 AEST
    const kolkata = compiledFixture({ mic: 'XNSE', timezone: 'Asia/Kolkata', sameAs: 'https://x/#XNSE', weekly: weekdays([['09:15', '15:30']]) })
    expect(statusAt(kolkata, at('2026-03-02T03:44:00Z')).status).toBe('CLOSED')
    expect(statusAt(kolkata, at('2026-03-02T03:45:00Z')).status).toBe('OPEN')
    expect(statusAt(kolkata, at('2026-03-02T09:59:00Z')).status).toBe('OPEN')
    expect(statusAt(kolkata, at('2026-03-02T10:00:00Z')).status).toBe('CLOSED')
  })

  test('24/7 venues are OPEN in the last minute of the UTC day and have no next open or close', () => {
    const always = ['00:00', '24:00'] as [string, string]
    const calendar = compiledFixture({ mic: 'XCOI', timezone: 'UTC', sameAs: 'https://x/#XCOI', always_open: true, coverage: undefined, weekly: { mon: [always], tue: [always], wed: [always], thu: [always], fri: [always], sat: [always], sun: [always] } })
    for (const when of ['2026-12-31T23:59:59.999Z', '2031-06-01T00:00:00Z', '2020-01-01T12:00:00Z', '2026-03-08T23:59:00Z']) expect(statusAt(calendar, at(when)).status).toBe('OPEN')
    expect(nextOpen(calendar, at('2026-03-02T00:00:00Z'))).toBeNull()
    expect(nextClose(calendar, at('2026-03-02T00:00:00Z'))).toBeNull()
  })
})

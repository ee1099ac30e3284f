// DST on the real calendars: the US/Europe mismatch weeks, southern-hemisphere zones, a :30 zone,
// and next open/close across a long weekend, a lunch break, a DST change and a year end.
import { describe, expect, test } from 'bun:test'
import { nextClose, nextOpen, statusAt } from '../../src/calendar/engine'
import { sharedCalendars } from '../helpers/app'

const calendars = sharedCalendars()
const cal = (mic: string) => calendars.calendar(mic)!
const at = (iso: string) => Date.parse(iso)
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

describe('US/Europe mismatch weeks', () => {
  test('March 2026: New York on EDT (8 March) while London is still on GMT (until 29 March)', () => {
    // Monday 16 March: XNYS opens 13:30Z, XLON trades 08:00-16:30Z.
    expect(iso(nextOpen(cal('XNYS'), at('2026-03-16T12:00:00Z')))).toBe('2026-03-16T13:30:00.000Z')
    expect(statusAt(cal('XLON'), at('2026-03-16T08:01:00Z')).status).toBe('OPEN')
    expect(statusAt(cal('XLON'), at('2026-03-16T16:29:00Z')).status).toBe('OPEN')
    // After London moves (Monday 30 March) it opens at 07:00Z.
    expect(statusAt(cal('XLON'), at('2026-03-30T07:01:00Z')).status).toBe('OPEN')
    expect(statusAt(cal('XLON'), at('2026-03-30T15:31:00Z')).status).toBe('CLOSED')
    // Paris in the same weeks: 09:00 CET = 08:00Z before, 07:00Z after.
    expect(statusAt(cal('XPAR'), at('2026-03-16T07:59:00Z')).status).toBe('CLOSED')
    expect(statusAt(cal('XPAR'), at('2026-03-30T07:01:00Z')).status).toBe('OPEN')
  })

  test('October/November 2026: London back on GMT (25 October) while New York is on EDT until 1 November', () => {
    expect(statusAt(cal('XLON'), at('2026-10-26T07:30:00Z')).status).toBe('CLOSED')
    expect(statusAt(cal('XLON'), at('2026-10-26T08:01:00Z')).status).toBe('OPEN')
    expect(statusAt(cal('XNYS'), at('2026-10-26T13:31:00Z')).status).toBe('OPEN') // 09:31 EDT
    expect(statusAt(cal('XNYS'), at('2026-11-02T13:31:00Z')).status).toBe('CLOSED') // 08:31 EST
    expect(statusAt(cal('XNYS'), at('2026-11-02T14:31:00Z')).status).toBe('OPEN')
    // Friday 30 October close (20:00Z, EDT) to Monday 2 November open (14:30Z, EST).
    expect(iso(nextOpen(cal('XNYS'), at('2026-10-30T20:30:00Z')))).toBe('2026-11-02T14:30:00.000Z')
  })
})

describe('southern hemisphere and half-hour zones', () => {
  test('Sydney leaves daylight time on 5 April 2026 and starts it on 4 October 2026', () => {
    expect(iso(nextOpen(cal('XASX'), at('2026-04-01T06:00:00Z')))).toBe('2026-04-01T23:00:00.000Z') // Thu 2 Apr 10:00 AEDT
    expect(iso(nextOpen(cal('XASX'), at('2026-04-03T12:00:00Z')))).toBe('2026-04-07T00:00:00.000Z') // Good Friday, weekend, Easter Monday → Tue 10:00 AEST
    expect(iso(nextOpen(cal('XASX'), at('2026-10-02T12:00:00Z')))).toBe('2026-10-04T23:00:00.000Z') // Mon 5 Oct 10:00 AEDT
  })

  test('Auckland leaves daylight time on 5 April 2026 and starts it on 27 September 2026', () => {
    expect(statusAt(cal('XNZE'), at('2026-04-01T21:01:00Z')).status).toBe('OPEN') // Thu 2 Apr 10:01 NZDT
    expect(statusAt(cal('XNZE'), at('2026-04-06T21:30:00Z')).status).toBe('CLOSED') // Tue 7 Apr 09:30 NZST
    expect(statusAt(cal('XNZE'), at('2026-04-06T22:01:00Z')).status).toBe('OPEN') // 10:01 NZST
    expect(statusAt(cal('XNZE'), at('2026-09-28T21:01:00Z')).status).toBe('OPEN') // Tue 29 Sep 10:01 NZDT
  })

  test('Kolkata (UTC+05:30): 09:15-15:30 is 03:45-10:00Z', () => {
    expect(statusAt(cal('XNSE'), at('2026-03-02T03:44:00Z')).status).toBe('CLOSED')
    expect(statusAt(cal('XNSE'), at('2026-03-02T03:46:00Z')).status).toBe('OPEN')
    expect(statusAt(cal('XNSE'), at('2026-03-02T09:59:00Z')).status).toBe('OPEN')
    expect(statusAt(cal('XNSE'), at('2026-03-02T10:01:00Z')).status).toBe('CLOSED')
  })
})

describe('next open and close on real calendars', () => {
  test('across a long weekend (Good Friday 2026 at NYSE)', () => {
    expect(iso(nextOpen(cal('XNYS'), at('2026-04-02T20:30:00Z')))).toBe('2026-04-06T13:30:00.000Z')
    expect(iso(nextClose(cal('XNYS'), at('2026-04-02T20:30:00Z')))).toBe('2026-04-06T20:00:00.000Z')
  })

  test('across a lunch break (Tokyo)', () => {
    expect(iso(nextOpen(cal('XJPX'), at('2026-03-10T02:45:00Z')))).toBe('2026-03-10T03:30:00.000Z')
    expect(iso(nextClose(cal('XJPX'), at('2026-03-10T01:00:00Z')))).toBe('2026-03-10T02:30:00.000Z')
  })

  test('across the year end (NYSE: 31 December 2026 to 4 January 2027)', () => {
    expect(iso(nextOpen(cal('XNYS'), at('2026-12-31T21:30:00Z')))).toBe('2027-01-04T14:30:00.000Z')
    expect(iso(nextClose(cal('XNYS'), at('2026-12-31T15:00:00Z')))).toBe('2026-12-31T21:00:00.000Z')
  })

  test('CME: the run from Sunday 17:00 to Monday 16:00 is one session', () => {
    expect(iso(nextClose(cal('XCBT'), at('2026-03-15T23:00:00Z')))).toBe('2026-03-16T21:00:00.000Z')
  })
})

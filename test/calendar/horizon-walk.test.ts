// Coverage is part of correctness (issue 9): every venue answers from its calendar, OPEN or
// CLOSED, on every day from the day this walk was written through LAST_DAY, except on its
// provisional dates, which answer UNKNOWN all day with their reason and on no other date.
// HORIZON_LAST_DAY walks further while calendar data for a later year is being entered.
import { describe, expect, test } from 'bun:test'
import { provisionalOn, statusAt } from '../../src/calendar/engine'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { dateOfDayNumber, dayNumber, localToUtc } from '../../src/calendar/zone'
import { sharedCalendars } from '../helpers/app'

const FIRST_DAY = '2026-11-23'
const LAST_DAY = process.env.HORIZON_LAST_DAY ?? '2028-12-31'
/** Local wall times (minutes after midnight): night, morning, midday, afternoon, evening. */
const LOCAL_TIMES = [3 * 60, 9 * 60 + 45, 12 * 60 + 15, 15 * 60, 20 * 60]

describe(`every venue answers from its calendar through ${LAST_DAY}`, () => {
  const calendars = sharedCalendars()
  for (const mic of SUPPORTED_MICS) {
    test(`${mic}: OPEN or CLOSED on every non-provisional day ${FIRST_DAY}..${LAST_DAY}`, () => {
      const calendar = calendars.calendar(mic)
      expect(calendar).not.toBeNull()
      if (!calendar) return
      if (!calendar.alwaysOpen) expect((calendar.coverageTo ?? "") >= LAST_DAY).toBe(true)
      const unexpected: string[] = []
      let provisionalDays = 0
      for (let day = dayNumber(FIRST_DAY); day <= dayNumber(LAST_DAY); day++) {
        const date = dateOfDayNumber(day)
        const pending = calendar.alwaysOpen ? null : provisionalOn(calendar, date)
        if (pending) provisionalDays++
        for (const minutes of LOCAL_TIMES) {
          const answer = statusAt(calendar, localToUtc(calendar.timezone, day, minutes))
          if (pending) {
            if (answer.status !== 'UNKNOWN' || !answer.reason.startsWith('provisional: ')) unexpected.push(`${date} ${minutes}: ${answer.status} on a provisional day`)
          } else if (answer.status === 'UNKNOWN') {
            unexpected.push(`${date} ${minutes}: UNKNOWN (${answer.reason})`)
          }
        }
      }
      expect(unexpected).toEqual([])
      // A provisional date fences off one day, never a season.
      expect(provisionalDays).toBeLessThan(60)
    })
  }
})

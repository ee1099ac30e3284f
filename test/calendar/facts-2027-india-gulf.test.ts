// Dated facts for XNSE, XBOM, XDFM, XSAU and XIST through 2027 (rule-derived, published and
// provisional dates; see docs/calendars/india-gulf.md), and a walk over every day from
// 2026-11-23 to 2027-12-31: OPEN or CLOSED everywhere except on a provisional local date.
import { describe, expect, test } from 'bun:test'
import { sharedCalendars } from '../helpers/app'
import { localLookups } from '../helpers/calendars'

const calendars = sharedCalendars()
const MICS = ['XNSE', 'XBOM', 'XDFM', 'XSAU', 'XIST'] as const

const { calendarOf, statusOf } = localLookups(calendars)

type Fact = [mic: string, local: string, expected: 'OPEN' | 'CLOSED' | 'UNKNOWN', why: string]
/** The same fact for NSE and BSE, which publish identical equity holiday lists. */
const INDIA = (local: string, expected: Fact[2], why: string): Fact[] => ['XNSE', 'XBOM'].map((mic): Fact => [mic, local, expected, why])

const FACTS: Fact[] = [
  // India: remainder of the published 2026 list, 2027 rule-derived closures, regular hours, provisional festivals.
  ...INDIA('2026-11-24 11:00', 'CLOSED', 'Prakash Gurpurb (2026 circular)'),
  ...INDIA('2026-12-25 11:00', 'CLOSED', 'Christmas (2026 circular)'),
  ...INDIA('2026-12-24 15:29', 'OPEN', 'regular session to 15:30'),
  ...INDIA('2026-12-24 15:30', 'CLOSED', 'close 15:30'),
  ...INDIA('2027-01-26 11:00', 'CLOSED', 'Republic Day (fixed date)'),
  ...INDIA('2027-03-26 11:00', 'CLOSED', 'Good Friday (Easter 2027-03-28)'),
  ...INDIA('2027-04-14 11:00', 'CLOSED', 'Ambedkar Jayanti (fixed date)'),
  ...INDIA('2027-04-16 09:15', 'OPEN', 'ordinary Friday between festival days'),
  ...INDIA('2027-03-22 11:00', 'UNKNOWN', 'Holi: 2027 list not yet published'),
  ...INDIA('2027-03-23 11:00', 'OPEN', 'day after the provisional Holi'),
  ...INDIA('2027-10-28 15:00', 'OPEN', 'day before Diwali Laxmi Pujan'),
  ...INDIA('2027-10-29 18:30', 'UNKNOWN', 'Diwali Laxmi Pujan with a Muhurat session of unknown hours'),
  ...INDIA('2027-11-01 10:00', 'OPEN', 'Monday after Diwali (Balipratipada falls on Saturday)'),
  // Dubai: Monday-Friday, fixed dates by rule, Hijri holidays provisional over their windows.
  ['XDFM', '2026-12-02 11:00', 'CLOSED', 'Eid Al Etihad (DFM circular 12/2025)'],
  ['XDFM', '2026-12-03 11:00', 'CLOSED', 'Eid Al Etihad (DFM circular 12/2025)'],
  ['XDFM', '2026-12-04 11:00', 'UNKNOWN', 'possible transferred Eid Al Etihad day'],
  ['XDFM', '2026-11-30 11:00', 'OPEN', 'Monday before the Eid Al Etihad week'],
  ['XDFM', '2027-01-01 11:00', 'CLOSED', "New Year's Day"],
  ['XDFM', '2027-01-04 14:44', 'OPEN', 'continuous trading to 14:45'],
  ['XDFM', '2027-01-04 14:45', 'CLOSED', 'closing auction excluded'],
  ['XDFM', '2027-03-08 11:00', 'OPEN', 'day before the Eid al-Fitr window'],
  ['XDFM', '2027-03-09 11:00', 'UNKNOWN', 'Eid al-Fitr 1448: 30 Ramadan only if the moon is not seen on 8 March'],
  ['XDFM', '2027-03-10 11:00', 'CLOSED', 'Eid al-Fitr 1448: closed whichever day the moon is seen'],
  ['XDFM', '2027-03-15 11:00', 'OPEN', 'Monday after the Eid al-Fitr window'],
  ['XDFM', '2027-12-02 11:00', 'CLOSED', 'Eid Al Etihad (fixed date, Thursday)'],
  ['XDFM', '2027-12-03 11:00', 'CLOSED', 'Eid Al Etihad (fixed date, Friday)'],
  // Saudi Exchange: Sunday-Thursday, Founding and National Day by rule, Eid windows with provisional edges.
  ['XSAU', '2027-02-21 14:59', 'OPEN', 'Sunday session; Ramadan at regular hours'],
  ['XSAU', '2027-02-22 11:00', 'CLOSED', 'Founding Day'],
  ['XSAU', '2027-02-26 11:00', 'CLOSED', 'Friday weekend'],
  ['XSAU', '2027-03-03 11:00', 'OPEN', 'day before the provisional start of the Eid al-Fitr break'],
  ['XSAU', '2027-03-04 11:00', 'UNKNOWN', 'possible first closed day of the Eid al-Fitr break'],
  ['XSAU', '2027-03-09 11:00', 'CLOSED', 'Eid al-Fitr break (Saudi Exchange calendar)'],
  ['XSAU', '2027-05-18 11:00', 'CLOSED', 'Eid al-Adha break (Saudi Exchange calendar)'],
  ['XSAU', '2027-05-24 11:00', 'OPEN', 'Monday after the Eid al-Adha break'],
  ['XSAU', '2027-09-23 11:00', 'CLOSED', 'National Day (Thursday)'],
  // Borsa Istanbul: Law 2429 and the pre-computed Bayram dates; half days end at 12:30.
  ['XIST', '2027-03-05 17:59', 'OPEN', 'regular session to 18:00'],
  ['XIST', '2027-03-08 12:29', 'OPEN', 'Ramazan Bayrami arefe, before 12:30'],
  ['XIST', '2027-03-08 12:30', 'CLOSED', 'Ramazan Bayrami arefe half day'],
  ['XIST', '2027-03-09 11:00', 'CLOSED', 'Ramazan Bayrami day 1'],
  ['XIST', '2027-03-12 11:00', 'OPEN', 'day after Ramazan Bayrami'],
  ['XIST', '2027-04-23 11:00', 'CLOSED', "National Sovereignty and Children's Day"],
  ['XIST', '2027-05-14 11:00', 'OPEN', 'Friday before the Kurban arefe (Saturday)'],
  ['XIST', '2027-05-17 11:00', 'CLOSED', 'Kurban Bayrami day 2'],
  ['XIST', '2027-05-19 11:00', 'CLOSED', 'Kurban Bayrami day 4 and 19 May'],
  ['XIST', '2027-08-30 11:00', 'CLOSED', 'Victory Day'],
  ['XIST', '2027-10-28 12:29', 'OPEN', 'Republic Day eve, before 12:30'],
  ['XIST', '2027-10-28 12:30', 'CLOSED', 'Republic Day eve half day'],
  ['XIST', '2027-10-29 11:00', 'CLOSED', 'Republic Day'],
]

describe('2027 calendar facts: India and the Gulf', () => {
  for (const [mic, local, expected, why] of FACTS) {
    test(`${mic} ${local} local is ${expected}: ${why}`, () => {
      const answer = statusOf(mic, local)
      expect(answer.status).toBe(expected)
      if (expected === 'UNKNOWN') expect(answer.reason).toStartWith('provisional:')
    })
  }

  test('a provisional day is UNKNOWN from its local midnight to the next, and only then', () => {
    for (const mic of ['XNSE', 'XBOM']) {
      expect(statusOf(mic, '2027-10-28 23:59').status).toBe('CLOSED')
      expect(statusOf(mic, '2027-10-29 00:00').status).toBe('UNKNOWN')
      expect(statusOf(mic, '2027-10-29 23:59').status).toBe('UNKNOWN')
      expect(statusOf(mic, '2027-10-30 00:00').status).toBe('CLOSED')
    }
    expect(statusOf('XDFM', '2027-03-12 23:59').status).toBe('UNKNOWN')
    expect(statusOf('XDFM', '2027-03-13 00:00').status).toBe('CLOSED')
  })

  test('every venue covers 2027 and answers from its calendar on every non-provisional day to 2027-12-31', () => {
    const first = Date.parse('2026-11-23T00:00:00Z')
    const last = Date.parse('2027-12-31T00:00:00Z')
    for (const mic of MICS) {
      const calendar = calendarOf(mic)
      expect(calendar.file.coverage!.to >= '2027-12-31').toBe(true)
      expect(calendar.file.schema_version).toBeGreaterThanOrEqual(2)
      const provisional = calendar.file.provisional ?? {}
      let provisionalDays = 0
      for (let day = first; day <= last; day += 86_400_000) {
        const date = new Date(day).toISOString().slice(0, 10)
        const isProvisional = date in provisional
        if (isProvisional) provisionalDays++
        for (const time of ['03:00', '12:00', '20:00']) {
          const answer = statusOf(mic, `${date} ${time}`)
          if (isProvisional) {
            expect(answer.status, `${mic} ${date} ${time}`).toBe('UNKNOWN')
            expect(answer.reason).toStartWith('provisional:')
          } else {
            expect(['OPEN', 'CLOSED'], `${mic} ${date} ${time}: ${answer.reason}`).toContain(answer.status)
          }
        }
      }
      // XIST has no provisional date; the others have at least one in the walked range.
      if (mic === 'XIST') expect(provisionalDays).toBe(0)
      else expect(provisionalDays).toBeGreaterThan(0)
    }
  })
})

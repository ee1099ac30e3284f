// Independent facts about each venue, taken from the exchanges' published calendars and hours
// while the files were written (see each file's sources). They check the data, not the engine.
import { describe, expect, test } from 'bun:test'
// statusAt through the listed-day check: each fact is also checked against the day /v5/calendar lists.
import { statusAt } from '../helpers/listed-days'
import { sharedCalendars } from '../helpers/app'

const FACTS: [mic: string, instant: string, expected: 'OPEN' | 'CLOSED' | 'UNKNOWN', why: string][] = [
  ['XNYS', '2025-01-09T15:00:00Z', 'CLOSED', 'National Day of Mourning (President Carter)'],
  ['XNYS', '2026-07-03T15:00:00Z', 'CLOSED', 'Independence Day observed'],
  ['XNYS', '2026-07-02T19:30:00Z', 'OPEN', 'no early close on 2 July 2026'],
  ['XNYS', '2026-11-27T18:01:00Z', 'CLOSED', 'day after Thanksgiving, 13:00 close'],
  ['XNYS', '2027-12-31T15:00:00Z', 'OPEN', 'New Year 2028 (Saturday) is not observed on Friday'],
  ['XNAS', '2025-01-09T15:00:00Z', 'CLOSED', 'Carter day of mourning'],
  ['XNAS', '2025-11-28T18:01:00Z', 'CLOSED', 'early close 13:00 ET'],
  ['XCBO', '2025-12-24T18:30:00Z', 'CLOSED', 'Christmas Eve early close 12:00 CT'],
  ['XCBO', '2026-06-15T19:59:00Z', 'OPEN', 'regular session to 15:00 CDT'],
  ['XCBT', '2025-01-09T18:30:00Z', 'CLOSED', 'mourning-day close 12:15 CST'],
  ['XCBT', '2026-01-19T19:00:00Z', 'CLOSED', 'MLK halt 12:00-17:00 CST'],
  ['XCBT', '2027-01-18T15:00:00Z', 'OPEN', 'MLK 2027: open until the 12:00 CST halt'],
  ['XNYM', '2026-04-03T14:00:00Z', 'CLOSED', 'Good Friday'],
  ['XNYM', '2026-11-27T19:50:00Z', 'CLOSED', 'early close 13:45 CST'],
  ['XNYM', '2026-01-19T19:00:00Z', 'OPEN', 'MLK: open until the 13:30 CST halt'],
  ['XLON', '2026-12-24T12:29:00Z', 'OPEN', 'Christmas Eve half day before 12:30'],
  ['XLON', '2026-12-24T12:30:00Z', 'CLOSED', 'early close 12:30 GMT'],
  ['XLON', '2027-08-30T10:00:00Z', 'CLOSED', 'Summer Bank Holiday'],
  ['XLON', '2026-07-01T15:30:00Z', 'CLOSED', '16:30 BST: closing auction excluded'],
  ['XPAR', '2025-12-24T12:55:00Z', 'CLOSED', 'early close 13:55 CET'],
  ['XPAR', '2026-04-03T08:00:00Z', 'CLOSED', 'Good Friday'],
  ['XPAR', '2026-06-15T15:29:00Z', 'OPEN', 'regular session'],
  ['XMIL', '2025-08-15T10:00:00Z', 'CLOSED', 'Ferragosto'],
  ['XMIL', '2026-12-24T10:00:00Z', 'CLOSED', 'Christmas Eve full closure'],
  ['XMIL', '2027-01-04T10:00:00Z', 'OPEN', 'first session of 2027 (rule-derived calendar)'],
  ['XSWX', '2026-05-14T08:00:00Z', 'CLOSED', 'Ascension'],
  ['XSWX', '2026-11-23T16:19:00Z', 'OPEN', '17:19 CET'],
  ['XSWX', '2026-11-23T16:20:00Z', 'CLOSED', 'closing auction from 17:20'],
  ['XHEL', '2027-12-06T10:00:00Z', 'CLOSED', 'Independence Day'],
  ['XHEL', '2026-06-19T10:00:00Z', 'CLOSED', 'Midsummer Eve'],
  ['XSTO', '2026-04-02T10:54:00Z', 'OPEN', 'Maundy Thursday half day, 12:54 CEST'],
  ['XSTO', '2026-04-02T10:55:00Z', 'CLOSED', 'early close 12:55'],
  ['XSTO', '2025-06-06T10:00:00Z', 'CLOSED', 'National Day'],
  ['XJPX', '2026-11-23T01:00:00Z', 'CLOSED', 'Labor Thanksgiving Day'],
  ['XJPX', '2026-11-24T06:20:00Z', 'OPEN', '15:20 JST: extended afternoon session'],
  ['XJPX', '2026-11-24T02:45:00Z', 'CLOSED', '11:45 JST lunch break'],
  ['XJPX', '2027-03-22T01:00:00Z', 'CLOSED', 'substitute holiday for the Vernal Equinox'],
  ['XHKG', '2026-12-24T05:30:00Z', 'CLOSED', 'Christmas Eve half day'],
  ['XHKG', '2026-12-24T03:00:00Z', 'OPEN', 'morning session on the half day'],
  ['XHKG', '2026-11-23T04:30:00Z', 'CLOSED', 'lunch break'],
  ['XHKG', '2026-10-19T02:00:00Z', 'CLOSED', 'day following Chung Yeung'],
  ['XSES', '2026-11-10T04:30:00Z', 'CLOSED', 'lunch break (since 2017)'],
  ['XSES', '2026-11-10T05:30:00Z', 'OPEN', 'afternoon session'],
  ['XSES', '2026-11-09T02:00:00Z', 'CLOSED', 'Deepavali observed'],
  ['XSHG', '2026-10-06T02:00:00Z', 'CLOSED', 'National Day holiday'],
  ['XSHG', '2026-11-23T03:45:00Z', 'CLOSED', 'lunch break'],
  ['XSHG', '2027-01-04T02:00:00Z', 'OPEN', 'first session of 2027 (New Year holiday is Friday 1 January only)'],
  ['XSHE', '2026-06-19T02:00:00Z', 'CLOSED', 'Dragon Boat Festival'],
  ['XSHE', '2026-11-23T02:00:00Z', 'OPEN', '10:00 CST'],
  ['XKRX', '2026-07-17T01:00:00Z', 'CLOSED', 'Constitution Day, a holiday again from 2026'],
  ['XKRX', '2026-11-19T00:30:00Z', 'CLOSED', 'exam day: opens 10:00'],
  ['XKRX', '2026-11-19T07:00:00Z', 'OPEN', 'exam day: session to 16:30'],
  ['XKRX', '2026-12-31T02:00:00Z', 'CLOSED', 'year-end closure'],
  ['XASX', '2026-01-26T00:00:00Z', 'CLOSED', 'Australia Day'],
  ['XASX', '2025-12-24T03:15:00Z', 'CLOSED', 'after the 14:10 early close'],
  ['XASX', '2027-04-26T01:00:00Z', 'OPEN', 'no ANZAC Day substitute in 2027'],
  ['XNZE', '2026-07-09T23:00:00Z', 'CLOSED', 'Matariki'],
  ['XNZE', '2025-12-23T23:30:00Z', 'OPEN', '12:30 on the shortened day'],
  ['XNZE', '2025-12-24T00:00:00Z', 'CLOSED', 'after the 12:45 early close'],
  ['XBSP', '2026-02-18T15:30:00Z', 'CLOSED', 'Ash Wednesday, before the 13:00 late open'],
  ['XBSP', '2025-06-19T17:00:00Z', 'CLOSED', 'Corpus Christi'],
  ['XBSP', '2025-10-28T20:30:00Z', 'CLOSED', '17:30 local while the US is on daylight saving time'],
  ['XBSP', '2025-11-04T20:30:00Z', 'OPEN', '17:30 local in the 10:00-17:55 period'],
  ['XCOI', '2026-12-25T12:00:00Z', 'OPEN', '24/7'],
  ['XBIN', '2027-01-01T00:00:00Z', 'OPEN', '24/7'],
]

describe('published calendar facts', () => {
  const calendars = sharedCalendars()
  for (const [mic, instant, expected, why] of FACTS) {
    test(`${mic} ${instant} is ${expected}: ${why}`, () => {
      const calendar = calendars.calendar(mic)
      expect(calendar).not.toBeNull()
      expect(statusAt(calendar!, Date.parse(instant)).status).toBe(expected)
    })
  }
})

// The board's wording (present.ts), shared by the server's first paint and the browser's updates:
// a countdown whose instant has passed before the next poll brings the new state, and a day the
// calendar knows nothing about (its tile shows the state's reason instead).
import { describe, expect, test } from 'bun:test'
import { boardOrder, dayNote, matchesWords, searchText, tileFields } from '../../src/board/present'
import { EXCHANGES } from '../../src/calendar/exchanges'

const AT = Date.parse('2026-11-25T21:00:00.000Z')
const venue = (next: { event: 'open' | 'close' | 'override_ends'; at: string; provisional: boolean } | null) => ({
  status: 'OPEN',
  source: 'SCHEDULE',
  reason: 'regular session',
  phase: 'continuous',
  timezone: 'America/New_York',
  utc_offset: 'UTC-05:00',
  day: { kind: 'regular', name: null, open_local: '09:30', close_local: '16:00' },
  next,
})

describe('tile wording', () => {
  test('a countdown reads "in …" before its instant and "now" from it on, never "in now"', () => {
    const tile = venue({ event: 'close', at: new Date(AT).toISOString(), provisional: false })
    expect(tileFields(tile, AT - 300_000).countdown).toBe('in 5 min 00 s')
    expect(tileFields(tile, AT - 1500).countdown).toBe('in 1 s')
    for (const now of [AT, AT + 1, AT + 4000]) expect(tileFields(tile, now).countdown).toBe('now')
    expect(tileFields(venue(null), AT).countdown).toBe('')
  })

  test('an unknown day has no note of its own: the tile shows the reason the state gives', () => {
    const unknown = { ...venue(null), status: 'UNKNOWN', reason: 'calendar file XSWX.json is missing', phase: null, day: { kind: 'unknown', name: null, open_local: null, close_local: null } }
    expect(dayNote(unknown.day)).toBeNull()
    expect(tileFields(unknown, AT)).toMatchObject({ special: '', reason: 'Calendar: calendar file XSWX.json is missing' })
    // A special day still has its note, and the calendar's reason is not repeated beside it.
    const holiday = { ...unknown, status: 'CLOSED', reason: 'holiday: Thanksgiving Day', day: { kind: 'holiday', name: 'Thanksgiving Day', open_local: null, close_local: null } }
    expect(tileFields(holiday, AT)).toMatchObject({ special: 'Holiday: Thanksgiving Day', reason: '' })
  })
})

describe('board order and the filter words', () => {
  test('OPEN first, then HALTED, UNKNOWN, CLOSED; the list order within each', () => {
    const venues = [{ mic: 'A', status: 'CLOSED' }, { mic: 'B', status: 'OPEN' }, { mic: 'C', status: 'UNKNOWN' }, { mic: 'D', status: 'OPEN' }, { mic: 'E', status: 'HALTED' }, { mic: 'F', status: 'CLOSED' }]
    expect(boardOrder(venues).map((venue) => venue.mic)).toEqual(['B', 'D', 'E', 'C', 'A', 'F'])
  })

  test('a state word is the state exactly; other words are substrings of MIC, name, country, region or zone', () => {
    const copenhagen = EXCHANGES.find((exchange) => exchange.mic === 'XCSE')!
    const text = searchText(copenhagen)
    expect(text).toContain('copenhagen')
    expect(matchesWords(['open'], 'CLOSED', text)).toBe(false)
    expect(matchesWords(['open'], 'OPEN', text)).toBe(true)
    expect(matchesWords(['copenhagen'], 'CLOSED', text)).toBe(true)
    expect(matchesWords(['europe', 'closed'], 'CLOSED', text)).toBe(true)
    expect(matchesWords(['europe', 'halted'], 'CLOSED', text)).toBe(false)
    expect(matchesWords(['copen'], 'OPEN', text)).toBe(true)
    expect(matchesWords(['constructor'], 'OPEN', text)).toBe(false)
    expect(matchesWords([], 'UNKNOWN', text)).toBe(true)
  })
})

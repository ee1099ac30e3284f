// Instants and dates from user input: years 0000-0099 are themselves (not 1900-1999), and every
// route that reads one answers a clear 400 outside 1970-01-01..9999-12-31, in the error envelope.
import { describe, expect, test } from 'bun:test'
import { issueKey } from '../../src/accounts/keys'
import { dayNumber } from '../../src/calendar/zone'
import { validTimestamp } from '../../src/witness/checks'
import { daysInMonth, parseUtcDate, parseUtcInstant, SUPPORTED_RANGE, utcMs } from '../../src/utc'
import { makeTestApp } from '../helpers/app'

const NOW = '2026-03-10T15:00:00.000Z'

describe('src/utc.ts', () => {
  test('years below 100 stay themselves', () => {
    expect(new Date(utcMs(50, 3, 1)).toISOString()).toBe('0050-03-01T00:00:00.000Z')
    expect(new Date(utcMs(0, 2, 29, 12, 30)).toISOString()).toBe('0000-02-29T12:30:00.000Z')
    expect(new Date(utcMs(99, 12, 31, 23, 59, 59, 999)).toISOString()).toBe('0099-12-31T23:59:59.999Z')
  })

  test('leap years of the proleptic Gregorian calendar', () => {
    expect([daysInMonth(0, 2), daysInMonth(4, 2), daysInMonth(100, 2), daysInMonth(1900, 2), daysInMonth(2000, 2), daysInMonth(2027, 2)]).toEqual([29, 29, 28, 28, 29, 28])
  })

  test('dates: impossible → invalid, real but outside the range → out_of_range', () => {
    expect(parseUtcDate('0000-02-29')).toEqual({ ok: false, reason: 'out_of_range' })
    expect(parseUtcDate('0001-02-29')).toEqual({ ok: false, reason: 'invalid' })
    expect(parseUtcDate('1969-12-31')).toEqual({ ok: false, reason: 'out_of_range' })
    expect(parseUtcDate('1970-01-01')).toEqual({ ok: true, value: 0 })
    expect(parseUtcDate('9999-12-31')).toEqual({ ok: true, value: Date.parse('9999-12-31T00:00:00Z') })
  })

  test('instants: offsets count toward the range; sub-millisecond digits are truncated', () => {
    expect(parseUtcInstant('1970-01-01T00:30:00+01:00')).toEqual({ ok: false, reason: 'out_of_range' })
    expect(parseUtcInstant('1970-01-01T00:30:00-01:00')).toEqual({ ok: true, value: 90 * 60_000 })
    expect(parseUtcInstant('9999-12-31T23:00:00-05:00')).toEqual({ ok: false, reason: 'out_of_range' })
    expect(parseUtcInstant('9999-12-31T23:59:59.999999Z')).toEqual({ ok: true, value: Date.parse(SUPPORTED_RANGE.to) })
    expect(parseUtcInstant('2026-03-09T10:00:00.1234+05:30')).toEqual({ ok: true, value: Date.parse('2026-03-09T04:30:00.123Z') })
    expect(parseUtcInstant('2026-03-09t10:00z')).toEqual({ ok: true, value: Date.parse('2026-03-09T10:00:00Z') })
    expect(parseUtcInstant('2026-03-09T10:00:00+24:00')).toEqual({ ok: false, reason: 'invalid' })
    expect(parseUtcInstant('0000-02-29T00:00:00Z')).toEqual({ ok: false, reason: 'out_of_range' })
  })

  test('the calendar day numbers and the witness timestamp check read year 0 as year 0', () => {
    expect(dayNumber('0000-02-29')).toBe(utcMs(0, 2, 29) / 86_400_000)
    expect(Number.isNaN(dayNumber('0100-02-29'))).toBe(true)
    expect(validTimestamp('0000-02-29T00:00:00Z')).toBe(true)
    expect(validTimestamp('1900-02-29T00:00:00Z')).toBe(false)
  })
})

describe('routes answer 400 outside the supported range', () => {
  const expectError = (response: { status: number; headers: Headers; body: any }, code: string) => {
    expect(response.status).toBe(400)
    expect(response.headers.get('content-type')).toContain('application/json')
    expect(response.body.error).toBe(code)
    expect(typeof response.body.message).toBe('string')
  }

  const historical: [string, string][] = [
    ['0050-03-01T00:00:00Z', 'AT_OUT_OF_RANGE'],
    ['0000-02-29T12:00:00Z', 'AT_OUT_OF_RANGE'],
    ['0099-12-31T23:59:59Z', 'AT_OUT_OF_RANGE'],
    ['1969-12-31T23:59:59.999Z', 'AT_OUT_OF_RANGE'],
    ['1970-01-01T00:30:00%2B01:00', 'AT_OUT_OF_RANGE'],
    ['9999-12-31T23:00:00-05:00', 'AT_OUT_OF_RANGE'],
    ['0001-02-29T00:00:00Z', 'AT_INVALID'],
    ['1900-02-29T00:00:00Z', 'AT_INVALID'],
    ['2026-03-09T10:00:00%2B24:00', 'AT_INVALID'],
  ]
  for (const [at, code] of historical) {
    test(`/v5/historical?at=${at} → ${code}`, async () => {
      const response = await makeTestApp({ now: NOW }).json(`/v5/historical?mic=XNYS&at=${at}`)
      expectError(response, code)
      if (code === 'AT_OUT_OF_RANGE') expect(response.body.supported_range).toEqual(SUPPORTED_RANGE)
    })
  }

  test('/v5/historical at the edges of the range and on 29 February 2000 answers', async () => {
    const { json } = makeTestApp({ now: NOW })
    for (const at of ['1970-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '2000-02-29T15:00:00Z']) {
      const { status, body } = await json(`/v5/historical?mic=XNYS&at=${at}`)
      expect(status).toBe(200)
      expect(body.at).toBe(new Date(Date.parse(at)).toISOString())
    }
  })

  test('/v5/briefing?date=', async () => {
    const { json } = makeTestApp({ now: NOW })
    for (const date of ['0050-03-01', '0000-02-29', '1969-12-31']) expectError(await json(`/v5/briefing?date=${date}`), 'DATE_OUT_OF_RANGE')
    expectError(await json('/v5/briefing?date=0001-02-29'), 'INVALID_DATE')
    for (const date of ['1970-01-01', '9999-12-31']) {
      const { status, body } = await json(`/v5/briefing?date=${date}`)
      expect(status).toBe(200)
      expect(body.date).toBe(date)
    }
  })

  test('/v5/audit/digest?date= and /v5/archive?date=', async () => {
    const harness = makeTestApp({ now: NOW })
    const pro = (await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(NOW) })).key
    const headers = { 'x-oracle-key': pro }
    for (const date of ['0050-03-01', '0000-02-29', '1969-12-31']) {
      expectError(await harness.json(`/v5/audit/digest?date=${date}`), 'DATE_OUT_OF_RANGE')
      expectError(await harness.json(`/v5/archive?date=${date}`, { headers }), 'DATE_OUT_OF_RANGE')
    }
    expectError(await harness.json('/v5/audit/digest?date=0001-02-29'), 'INVALID_DATE')
    expectError(await harness.json('/v5/archive?date=0001-02-29', { headers }), 'INVALID_DATE')
  })

  test('/v5/receipts?from=', async () => {
    const harness = makeTestApp({ now: NOW })
    const pro = (await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(NOW) })).key
    const headers = { 'x-oracle-key': pro }
    for (const from of ['0050-03-01T00:00:00Z', '0000-02-29T00:00:00Z', '1969-12-31T23:59:59Z']) expectError(await harness.json(`/v5/receipts?from=${from}`, { headers }), 'FROM_OUT_OF_RANGE')
    expectError(await harness.json('/v5/receipts?from=0001-02-29T00:00:00Z', { headers }), 'INVALID_FROM')
    expect((await harness.json('/v5/receipts?from=1970-01-01T00:00:00Z', { headers })).status).toBe(200)
  })
})

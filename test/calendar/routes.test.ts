import { describe, expect, test } from 'bun:test'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { makeTestApp, TEST_ADMIN_KEY } from '../helpers/app'
import { scheduleDir, scheduleFixture, writeSchedule } from '../helpers/calendars'
import { CalendarRegistry } from '../../src/calendar/registry'
import { memoryLogger } from '../../src/log'

describe('GET /v5/exchanges and /mics.json', () => {
  test('list every supported exchange', async () => {
    const { json, request } = makeTestApp()
    const { status, body } = await json('/v5/exchanges')
    expect(status).toBe(200)
    expect(body.exchanges.map((e: { mic: string }) => e.mic)).toEqual([...SUPPORTED_MICS])
    for (const entry of body.exchanges) expect(Object.keys(entry).sort()).toEqual(['mic', 'name', 'timezone'])
    const response = await request('/mics.json')
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400')
    const mics = (await response.json()) as Record<string, string>[]
    expect(Array.isArray(mics)).toBe(true)
    expect(mics).toHaveLength(SUPPORTED_MICS.length)
    for (const entry of mics) {
      expect(entry.mic).toMatch(/^[A-Z0-9]{4}$/)
      expect(entry.country).toMatch(/^[A-Z]{2}$/)
      expect(entry.currency).toMatch(/^[A-Z]{3}$/)
      expect(entry.sameAs).toStartWith('https://')
      expect(() => new Intl.DateTimeFormat('en', { timeZone: entry.timezone })).not.toThrow()
    }
  })
})

describe('GET /v5/schedule', () => {
  test('defaults to XNYS and reports calendar status, next open/close and data_version', async () => {
    const { json } = makeTestApp({ now: '2026-03-09T13:31:00Z' })
    const { status, body } = await json('/v5/schedule')
    expect(status).toBe(200)
    expect(body).toMatchObject({ mic: 'XNYS', timezone: 'America/New_York', current_status: 'OPEN', next_close: '2026-03-09T20:00:00.000Z', next_open: '2026-03-10T13:30:00.000Z', lunch_break: null, queried_at: '2026-03-09T13:31:00.000Z' })
    expect(body.data_version).toMatch(/^\d{4}\.\d+\.\d+$/)
  })

  test('the phase now, as /v5/historical gives it for the same instant, and until when: the end of its span in /v5/calendar\'s day', async () => {
    // Instants across a London and a New York day (bands, continuous trading, closed), a lunch break, a weekend, a 24/7 venue.
    const cases: [string, string][] = [
      ['XLON', '2026-03-10T07:55:00Z'], ['XLON', '2026-03-10T12:00:00Z'], ['XLON', '2026-03-10T16:31:00Z'], ['XLON', '2026-03-10T16:40:00Z'], ['XLON', '2026-03-10T22:00:00Z'],
      ['XNYS', '2026-03-09T13:31:00Z'], ['XNYS', '2026-03-09T19:59:00Z'], ['XNYS', '2026-03-14T15:00:00Z'], ['XJPX', '2026-03-10T03:00:00Z'], ['XCOI', '2026-03-10T03:00:00Z'],
    ]
    let bands = 0
    for (const [mic, now] of cases) {
      const { json } = makeTestApp({ now })
      const schedule = (await json(`/v5/schedule?mic=${mic}`)).body
      const historical = (await json(`/v5/historical?mic=${mic}`)).body
      expect({ mic, now, phase: schedule.phase, status: schedule.current_status }).toEqual({ mic, now, phase: historical.phase, status: historical.computed_status })
      if (mic === 'XCOI') {
        expect({ phase: schedule.phase, until: schedule.phase_until }).toEqual({ phase: 'continuous', until: null })
        continue
      }
      // The listing's spans of today and the next days: the phase ends where its span ends, or (closed) where the next span starts.
      const days = (await json(`/v5/calendar?mic=${mic}&from=${now.slice(0, 10)}&to=${new Date(Date.parse(now) + 6 * 86_400_000).toISOString().slice(0, 10)}`)).body.days as { phases: { phase: string; from: string; to: string }[] | null }[]
      const spans = days.flatMap((day) => day.phases ?? [])
      const current = spans.find((span) => Date.parse(span.from) <= Date.parse(now) && Date.parse(now) < Date.parse(span.to))
      const until = current ? current.to : spans.find((span) => Date.parse(span.from) > Date.parse(now))!.from
      expect({ mic, now, phase: schedule.phase, until: schedule.phase_until }).toEqual({ mic, now, phase: current?.phase ?? 'closed', until })
      if (current && current.phase !== 'continuous') bands++
    }
    expect(bands).toBeGreaterThanOrEqual(2)
  })

  test('every venue with a midday break reports it; others report null', async () => {
    const { json } = makeTestApp({ now: '2026-03-10T01:00:00Z' })
    const expected: Record<string, { start: string; end: string } | null> = {
      XJPX: { start: '11:30', end: '12:30' },
      XHKG: { start: '12:00', end: '13:00' },
      XSHG: { start: '11:30', end: '13:00' },
      XSHE: { start: '11:30', end: '13:00' },
      XSES: { start: '12:00', end: '13:00' },
      XNYS: null,
      XCBT: null,
    }
    for (const [mic, lunch] of Object.entries(expected)) expect([mic, (await json(`/v5/schedule?mic=${mic}`)).body.lunch_break]).toEqual([mic, lunch])
  })

  test('unknown MIC → 400 UNKNOWN_MIC with every supported MIC', async () => {
    const { json } = makeTestApp()
    const { status, body } = await json('/v5/schedule?mic=XXXX')
    expect(status).toBe(400)
    expect(body.error).toBe('UNKNOWN_MIC')
    expect(body.supported).toEqual([...SUPPORTED_MICS])
  })

  test('a MIC without a valid calendar is UNKNOWN, not guessed', async () => {
    const dir = scheduleDir([scheduleFixture({ data_version: '2026.1.0' })])
    writeSchedule(dir, '{"broken":', 'XLON')
    const { json } = makeTestApp({ schedulesDir: dir })
    const { status, body } = await json('/v5/schedule?mic=XLON')
    expect(status).toBe(200)
    expect(body.current_status).toBe('UNKNOWN')
    expect(body.next_open).toBeNull()
  })
})

describe('GET /v5/historical', () => {
  test('reconstructs with reasoning and a DST note near a change', async () => {
    const { json } = makeTestApp()
    const { status, body } = await json('/v5/historical?mic=XNYS&at=2026-03-09T13:29:00Z')
    expect(status).toBe(200)
    expect(body).toMatchObject({ mic: 'XNYS', computed_status: 'CLOSED', source: 'SCHEDULE_RECONSTRUCTION' })
    expect(body.reasoning).toMatchObject({ local_date: '2026-03-09', local_time: '09:29:00', utc_offset: 'UTC-04:00', rule: 'regular', decided_by: 'before open', sessions: [{ open: '09:30', close: '16:00' }] })
    expect(body.dst_note).toContain('2026-03-08T07:00:00.000Z')
    expect(typeof body.disclaimer).toBe('string')
    const far = await json('/v5/historical?mic=XNYS&at=2026-06-15T14:00:00Z')
    expect(far.body.computed_status).toBe('OPEN')
    expect(far.body.dst_note).toBeNull()
  })

  test('holiday reasoning names the holiday', async () => {
    const { json } = makeTestApp()
    const { body } = await json('/v5/historical?mic=XNYS&at=2026-12-25T17:00:00%2B00:00')
    expect(body.computed_status).toBe('CLOSED')
    expect(body.reasoning.rule).toBe('holiday')
    expect(body.reasoning.decided_by).toMatch(/^holiday: Christmas/)
  })

  test('outside coverage → UNKNOWN with the reason', async () => {
    const { json } = makeTestApp()
    const { body } = await json('/v5/historical?mic=XNYS&at=2031-01-06T15:00:00Z')
    expect(body.computed_status).toBe('UNKNOWN')
    expect(body.reasoning.decided_by).toMatch(/outside calendar coverage/)
  })

  test('without at: the instant of the request, as with at set to it', async () => {
    const { json } = makeTestApp({ now: '2026-03-09T14:00:00Z' })
    const { status, body } = await json('/v5/historical?mic=XNYS')
    expect(status).toBe(200)
    expect(body).toMatchObject({ at: '2026-03-09T14:00:00.000Z', queried_at: '2026-03-09T14:00:00.000Z', computed_status: 'OPEN', phase: 'continuous' })
    expect(body).toEqual((await json('/v5/historical?mic=XNYS&at=2026-03-09T14:00:00Z')).body)
  })

  const bad: [string, string][] = [
    ['/v5/historical?at=2026-03-09T13:29:00Z', 'MIC_REQUIRED'],
    ['/v5/historical?mic=XNYS&at=', 'AT_INVALID'],
    ['/v5/historical?mic=XNYS&at=yesterday', 'AT_INVALID'],
    ['/v5/historical?mic=XNYS&at=2026-03-09', 'AT_INVALID'],
    ['/v5/historical?mic=XNYS&at=2026-02-30T10:00:00Z', 'AT_INVALID'],
    ['/v5/historical?mic=XNYS&at=2026-03-09T25:00:00Z', 'AT_INVALID'],
    ['/v5/historical?mic=XNYS&at=2026-03-09T10:00:00', 'AT_INVALID'],
    ['/v5/historical?mic=NOPE&at=2026-03-09T10:00:00Z', 'UNKNOWN_MIC'],
  ]
  for (const [path, code] of bad) {
    test(`${path} → 400 ${code}`, async () => {
      const { json } = makeTestApp()
      const { status, body } = await json(path)
      expect(status).toBe(400)
      expect(body.error).toBe(code)
    })
  }
})

describe('GET /v5/dst-risk', () => {
  test('names the next transition with naive and actual opens', async () => {
    const { json } = makeTestApp({ now: '2026-10-20T00:00:00Z' })
    const { status, body } = await json('/v5/dst-risk')
    expect(status).toBe(200)
    for (const field of ['event', 'transition_utc', 'expires_at', 'description', 'affected_exchanges', 'risk_window_minutes', 'us_europe_dst_gap_note', 'verified_schedule', 'sma_protocol_note', 'note']) expect(body).toHaveProperty(field)
    for (const entry of body.affected_exchanges) {
      for (const field of ['mic', 'name', 'timezone', 'shift', 'naive_agent_open_utc', 'actual_open_utc_after_dst', 'error_minutes', 'risk']) expect(entry).toHaveProperty(field)
      if (entry.error_minutes !== null) expect(Date.parse(entry.naive_agent_open_utc) - Date.parse(entry.actual_open_utc_after_dst)).toBe(entry.error_minutes * 60_000)
    }
    expect(Date.parse(body.transition_utc)).toBeGreaterThan(Date.parse('2026-10-20T00:00:00Z'))
    expect(body.us_europe_dst_gap_note).toMatch(/2026-03-08/)
  })
})

describe('POST /v5/admin/schedules/reload', () => {
  test('needs the admin key and answers per-MIC results', async () => {
    const dir = scheduleDir([scheduleFixture()])
    const harness = makeTestApp({ schedulesDir: dir })
    harness.deps.calendars = new CalendarRegistry(dir, memoryLogger(), harness.clock)
    harness.deps.calendars.reload('boot')
    expect((await harness.json('/v5/admin/schedules/reload', { method: 'POST' })).status).toBe(401)
    expect((await harness.json('/v5/admin/schedules/reload', { method: 'POST', headers: { 'x-oracle-key': 'nope-nope-nope-nope-nope-nope' } })).status).toBe(403)
    writeSchedule(dir, scheduleFixture({ data_version: '2026.2.0' }))
    const { status, body } = await harness.json('/v5/admin/schedules/reload', { method: 'POST', headers: { 'x-oracle-key': TEST_ADMIN_KEY } })
    expect(status).toBe(200)
    expect(body.results.find((r: { mic: string }) => r.mic === 'XNYS')).toMatchObject({ outcome: 'loaded', data_version: '2026.2.0' })
  })
})

describe('reload under concurrent requests', () => {
  test('every response sees one calendar generation, never a mix', async () => {
    const mics = ['XNYS', 'XNAS', 'XCBO'] as const
    const zones = { XNYS: 'America/New_York', XNAS: 'America/New_York', XCBO: 'America/Chicago' }
    const version = (label: string) => mics.map((mic) => scheduleFixture({ mic, timezone: zones[mic], name: `${mic} ${label}`, sameAs: `https://x/#${mic}` }))
    const dir = scheduleDir(version('A'))
    const harness = makeTestApp({ schedulesDir: dir })
    harness.deps.calendars = new CalendarRegistry(dir, memoryLogger('error'), harness.clock)
    harness.deps.calendars.reload('boot')
    let stop = false
    const reloader = (async () => {
      for (let i = 0; !stop; i++) {
        for (const file of version(i % 2 ? 'A' : 'B')) writeSchedule(dir, file)
        harness.deps.calendars.reload('test')
        await Bun.sleep(0)
      }
    })()
    const seen = new Set<string>()
    for (let round = 0; round < 60; round++) {
      const bodies = await Promise.all(Array.from({ length: 10 }, () => harness.request('/mics.json').then((r) => r.json() as Promise<{ mic: string; name: string }[]>)))
      for (const body of bodies) {
        const labels = new Set(body.filter((e) => (mics as readonly string[]).includes(e.mic)).map((e) => e.name.split(' ')[1]))
        expect(labels.size).toBe(1)
        seen.add([...labels][0]!)
      }
      await Bun.sleep(1) // let the reloader run between rounds
    }
    stop = true
    await reloader
    expect(seen.size).toBe(2) // both versions were actually served during the run
  })
})

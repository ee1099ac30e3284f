// The follower's configuration (CALENDAR_UPSTREAM_URL, _KEY, _INTERVAL_S) and its pacing: both or
// neither variable, https (http only to a loopback or private address), a vkey that parses (the
// service refuses to start with exit 2 otherwise), and the backoff with jitter after errors.
import { describe, expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { loadConfig } from '../../src/config'
import { CalendarFollower } from '../../src/calendar/updates/follower'
import { parseUpstreamKey } from '../../src/calendar/updates/services'
import { calendarPublisherKey } from '../../src/calendar/updates/publisher'
import { memoryLogger } from '../../src/log'
import { sqliteUpstreamStore } from '../../src/calendar/updates/store'
import { sqliteTransactor } from '../../src/store/sqlite-transaction'
import { openDatabase } from '../../src/store/database'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { FakeClock, tempDir, testSigner } from '../helpers/app'
import { CalendarRegistry } from '../../src/calendar/registry'

const vkey = calendarPublisherKey(testSigner(), 'source.example/calendars')!.vkey

describe('calendar upstream configuration', () => {
  test('both variables or neither; https, or http to loopback and private addresses only; the interval from 1 s, default 3600', () => {
    expect(loadConfig({}).calendarUpstream).toBeNull()
    expect(loadConfig({ CALENDAR_UPSTREAM_URL: 'https://source.example/openbell/', CALENDAR_UPSTREAM_KEY: vkey }).calendarUpstream).toEqual({ url: 'https://source.example/openbell', key: vkey, intervalMs: 3_600_000 })
    for (const url of ['http://127.0.0.1:8080', 'http://localhost:8080', 'http://10.1.2.3', 'http://172.20.0.5', 'http://192.168.1.9', 'http://[::1]:9000', 'http://[fd00::5]']) {
      expect(loadConfig({ CALENDAR_UPSTREAM_URL: url, CALENDAR_UPSTREAM_KEY: vkey }).calendarUpstream!.url).toBe(url)
    }
    for (const url of ['http://source.example', 'http://8.8.8.8', 'http://172.32.0.1', 'http://[2001:db8::1]']) {
      expect(() => loadConfig({ CALENDAR_UPSTREAM_URL: url, CALENDAR_UPSTREAM_KEY: vkey })).toThrow('CALENDAR_UPSTREAM_URL: http:// is allowed only to a loopback or private-network address')
    }
    expect(() => loadConfig({ CALENDAR_UPSTREAM_URL: 'https://source.example' })).toThrow('CALENDAR_UPSTREAM_KEY: required with CALENDAR_UPSTREAM_URL')
    expect(() => loadConfig({ CALENDAR_UPSTREAM_KEY: vkey })).toThrow('CALENDAR_UPSTREAM_URL: required with CALENDAR_UPSTREAM_KEY')
    expect(() => loadConfig({ CALENDAR_UPSTREAM_URL: 'https://user:pw@source.example', CALENDAR_UPSTREAM_KEY: vkey })).toThrow('must not carry credentials')
    expect(() => loadConfig({ CALENDAR_UPSTREAM_URL: 'https://source.example?x=1', CALENDAR_UPSTREAM_KEY: vkey })).toThrow('CALENDAR_UPSTREAM_URL')
    expect(() => loadConfig({ CALENDAR_UPSTREAM_URL: 'https://source.example', CALENDAR_UPSTREAM_KEY: 'not a vkey' })).toThrow('CALENDAR_UPSTREAM_KEY')
    expect(() => loadConfig({ CALENDAR_UPSTREAM_INTERVAL_S: '0' })).toThrow('CALENDAR_UPSTREAM_INTERVAL_S')
    expect(loadConfig({ CALENDAR_UPSTREAM_URL: 'https://s.example', CALENDAR_UPSTREAM_KEY: vkey, CALENDAR_UPSTREAM_INTERVAL_S: '1' }).calendarUpstream!.intervalMs).toBe(1000)
  })

  test('a vkey of the right shape whose key id does not match is refused at start (exit 2)', async () => {
    expect(parseUpstreamKey(vkey)).not.toBeNull()
    const wrongId = vkey.replace(/\+([0-9a-f]{8})\+/, (_, id: string) => `+${id === '00000000' ? '00000001' : '00000000'}+`)
    expect(parseUpstreamKey(wrongId)).toBeNull()
    const child = Bun.spawn(['bun', resolve(import.meta.dir, '../../src/main.ts')], { env: { ...process.env, DATA_DIR: tempDir(), PORT: '1', CALENDAR_UPSTREAM_URL: 'https://source.example', CALENDAR_UPSTREAM_KEY: wrongId }, stdout: 'pipe', stderr: 'pipe' })
    const stderr = await new Response(child.stderr).text()
    expect(await child.exited).toBe(2)
    expect(stderr).toContain('configuration error: CALENDAR_UPSTREAM_KEY')
  }, 30_000)

  test('errors back off: min(interval, 30 s) doubling, at most max(interval, 1 h), with jitter; other outcomes wait the interval ±10 %', () => {
    const db = openDatabase(':memory:')
    applyMigrations(db, MIGRATIONS)
    let random = 0.5
    const follower = (intervalMs: number) => new CalendarFollower({ config: { url: 'https://s.example', vkey, key: parseUpstreamKey(vkey)!, intervalMs }, calendars: new CalendarRegistry(tempDir(), memoryLogger(), new FakeClock(0)), store: sqliteUpstreamStore(db), transactor: sqliteTransactor(db), clock: new FakeClock(0), log: memoryLogger(), random: () => random })
    const hourly = follower(3_600_000) as unknown as { failures: number; nextPollDelay: CalendarFollower['nextPollDelay'] }
    expect(hourly.nextPollDelay('not_modified')).toBe(3_600_000)
    const delays = [1, 2, 3, 4, 5, 8, 20].map((failures) => {
      hourly.failures = failures
      return hourly.nextPollDelay('unreachable')
    })
    expect(delays).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 3_600_000, 3_600_000])
    random = 0
    expect(hourly.nextPollDelay('unreachable')).toBe(0.8 * 3_600_000)
    expect(hourly.nextPollDelay('applied')).toBe(0.9 * 3_600_000)
    random = 0.999
    const fast = follower(1000) as unknown as typeof hourly
    fast.failures = 3
    expect(fast.nextPollDelay('unreachable')).toBeCloseTo(4000 * 1.2, -2)
  })
})

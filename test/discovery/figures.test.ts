// /v5/metrics, /v5/metrics/public and /v5/traction: each figure traced to its source by changing
// the source and watching the figure move.
import { describe, expect, test } from 'bun:test'
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { makeTestApp, REPO_SCHEDULES, tempDir, type TestApp } from '../helpers/app'
import { TOOLS } from '../../src/mcp/tools'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { RECEIPT_TTL_SECONDS } from '../../src/crypto/receipt-fields'
import { setFirstStart } from '../helpers/installation'
import { Signer } from '../../src/crypto/signer'
import { DEFAULT_PROTOCOL_VERSION, SERVED_PROTOCOL_VERSIONS } from '../../src/mcp/protocol'

const DAY_MS = 86_400_000


const mcpCall = (t: TestApp, client: string, method = 'tools/list') =>
  t.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'cf-connecting-ip': client }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }) })

describe('/v5/metrics', () => {
  test('tool-endpoint requests and distinct clients today move with tool calls', async () => {
    const t = makeTestApp()
    const before = (await t.json('/v5/metrics')).body
    expect(before).toMatchObject({ total_mcp_requests_today: 0, unique_mcp_clients_today: 0, uptime_status: 'operational' })
    for (const client of ['192.0.2.1', '192.0.2.1', '192.0.2.2']) expect((await mcpCall(t, client)).status).toBe(200)
    const after = (await t.json('/v5/metrics')).body
    expect(after.total_mcp_requests_today).toBe(3)
    expect(after.unique_mcp_clients_today).toBe(2)
    // A new UTC day starts from zero.
    t.clock.advance(DAY_MS)
    expect((await t.json('/v5/metrics')).body).toMatchObject({ total_mcp_requests_today: 0, unique_mcp_clients_today: 0 })
  })

  test('best effort: zeros when the usage store fails, and a warning in the log', async () => {
    const t = makeTestApp()
    await mcpCall(t, '192.0.2.1')
    t.deps.mcpUsage.today = async () => {
      throw new Error('disk I/O error')
    }
    const { status, body } = await t.json('/v5/metrics')
    expect(status).toBe(200)
    expect(body).toMatchObject({ total_mcp_requests_today: 0, unique_mcp_clients_today: 0 })
    expect(t.log.lines.some((line) => String(line.msg).includes('metrics source unavailable'))).toBe(true)
  })

  test('exchanges covered and edge cases come from the loaded calendars: a holiday added, a coverage ended', async () => {
    const dir = tempDir()
    cpSync(REPO_SCHEDULES, dir, { recursive: true })
    const t = makeTestApp({ schedulesDir: dir, now: '2026-03-02T15:00:00Z' })
    const before = (await t.json('/v5/metrics')).body
    expect(before.exchanges_covered).toBe(SUPPORTED_MICS.length)
    expect(before.edge_cases.year).toBe(2026)
    expect(before.edge_cases_per_year).toBe(before.edge_cases.holidays + before.edge_cases.early_closes + before.edge_cases.late_opens + before.edge_cases.dst_transitions)
    // The US zones change twice a year: XNYS and XNAS alone give four transitions.
    expect(before.edge_cases.dst_transitions).toBeGreaterThanOrEqual(4)

    const file = join(dir, 'XNYS.json')
    const schedule = JSON.parse(readFileSync(file, 'utf8'))
    expect(schedule.holidays['2026-08-12']).toBeUndefined()
    schedule.holidays['2026-08-12'] = 'Test closure'
    schedule.data_version = '2099.1.0'
    writeFileSync(file, JSON.stringify(schedule))
    t.deps.calendars.reload('test')
    const withHoliday = (await t.json('/v5/metrics')).body
    expect(withHoliday.edge_cases.holidays).toBe(before.edge_cases.holidays + 1)
    expect(withHoliday.edge_cases_per_year).toBe(before.edge_cases_per_year + 1)
    expect((await t.json('/v5/traction')).body.edge_cases_per_year).toBe(withHoliday.edge_cases_per_year)

    // Past the end of XNYS's coverage the venue no longer counts as covered.
    const coverageEnd = t.deps.calendars.calendar('XNYS')!.coverageEnd
    t.clock.ms = coverageEnd + DAY_MS
    const later = (await t.json('/v5/metrics')).body
    const stillCovered = SUPPORTED_MICS.filter((mic) => {
      const calendar = t.deps.calendars.calendar(mic)!
      return calendar.alwaysOpen || calendar.coverageEnd > t.clock.ms
    }).length
    expect(later.exchanges_covered).toBe(stillCovered)
    expect(later.exchanges_covered).toBeLessThan(SUPPORTED_MICS.length)
  })

  test('uptime_status follows the signer', async () => {
    const { Signer } = await import('../../src/crypto/signer')
    const t = makeTestApp({ signer: Signer.offline('test: no key') })
    expect((await t.json('/v5/metrics')).body.uptime_status).toBe('degraded')
  })
})

describe('/v5/metrics/public', () => {
  test('mcp_tools is the tool registry, as tools/list answers it', async () => {
    const t = makeTestApp()
    const listed = (await (await mcpCall(t, '192.0.2.9')).json()) as { result: { tools: unknown[] } }
    const { body } = await t.json('/v5/metrics/public')
    expect(body.mcp_tools).toBe(TOOLS.length)
    expect(body.mcp_tools).toBe(listed.result.tools.length)
    expect(body).toMatchObject({ signing_algorithm: 'Ed25519', receipt_ttl_seconds: RECEIPT_TTL_SECONDS, fail_closed: true, exchanges: SUPPORTED_MICS.length })
  })

  test('x402 payment count and last payment come from the payments log', async () => {
    const t = makeTestApp({ env: { X402_PAY_TO: '0x' + '2'.repeat(40), X402_NETWORK: 'eip155:84532', X402_ASSET: '0x' + '3'.repeat(40) } })
    expect((await t.json('/v5/metrics/public')).body).toMatchObject({ x402_enabled: true, x402_network: 'eip155:84532', x402_payment_count: 0, last_payment_at: null })
    const claim = { kind: 'transaction' as const, purpose: 'status', network: 'eip155:84532', payer: null, amount_atomic: '1000' }
    await t.deps.transactor.run(() => t.deps.payments.spend({ ...claim, reference: 'tx:0x01', created_at: '2026-03-02T14:00:00.000Z' }))
    await t.deps.transactor.run(() => t.deps.payments.spend({ ...claim, reference: 'tx:0x02', created_at: '2026-03-02T14:30:00.000Z' }))
    // A claimed authorization that never settled is not a payment.
    await t.deps.transactor.run(() => t.deps.payments.claim({ ...claim, kind: 'authorization', reference: 'auth:0x03', created_at: '2026-03-02T14:45:00.000Z' }))
    expect((await t.json('/v5/metrics/public')).body).toMatchObject({ x402_payment_count: 2, last_payment_at: '2026-03-02T14:30:00.000Z' })
    expect((await t.json('/v5/metrics/public')).body.x402_enabled).toBe(true)
    expect((await makeTestApp().json('/v5/metrics/public')).body.x402_enabled).toBe(false)
  })

  test('uptime_days counts whole days since the stored first start; traction says the same', async () => {
    const t = makeTestApp({ now: '2026-03-02T15:00:00Z' })
    setFirstStart(t, '2026-02-20T16:00:00.000Z')
    expect((await t.json('/v5/metrics/public')).body).toMatchObject({ uptime_days: 9, uptime_since: '2026-02-20T16:00:00.000Z' })
    t.clock.advance(3 * DAY_MS)
    expect((await t.json('/v5/metrics/public')).body.uptime_days).toBe(12)
    expect((await t.json('/v5/traction')).body).toMatchObject({ days_live: 12, uptime_since: '2026-02-20T16:00:00.000Z' })
  })

  test('the first start is the earliest migration of an existing database, and never changes', () => {
    const t = makeTestApp()
    const first = (t.db.query(`SELECT min(applied_at) AS at FROM schema_migrations`).get() as { at: string }).at
    expect((t.db.query(`SELECT value FROM installation`).get() as { value: string }).value).toBe(first)
    expect(() => t.db.run(`UPDATE installation SET value = 'x'`)).toThrow(/never change/)
  })

  test('tests_passing is what the build recorded, null without a record', async () => {
    const file = join(tempDir(), 'build-info.json')
    const t = makeTestApp({ env: { BUILD_INFO_FILE: file } })
    expect((await t.json('/v5/metrics/public')).body).toMatchObject({ tests_passing: null, tests_recorded_at: null })
    writeFileSync(file, JSON.stringify({ tests_passing: 812, tests_failing: 0, recorded_at: '2026-03-01T10:00:00Z' }))
    expect((await t.json('/v5/metrics/public')).body).toMatchObject({ tests_passing: 812, tests_recorded_at: '2026-03-01T10:00:00Z' })
    writeFileSync(file, '{"tests_passing": "many"}')
    expect((await t.json('/v5/metrics/public')).body.tests_passing).toBeNull()
  })

  test('preflight_score is the number of compliance checks passing', async () => {
    const t = makeTestApp()
    const [metrics, compliance] = [(await t.json('/v5/metrics/public')).body, (await t.json('/v5/compliance')).body]
    expect(metrics.preflight_score).toBe(compliance.checks.filter((check: { status: string }) => check.status === 'pass').length)
    expect(metrics.preflight_checks).toBe(compliance.checks.length)
    // The figure moves with its source: the signer offline fails checks, and the score drops by as many.
    const offline = makeTestApp({ signer: Signer.offline('test: key file unreadable') })
    const [down, failing] = [(await offline.json('/v5/metrics/public')).body, (await offline.json('/v5/compliance')).body]
    expect(down.preflight_score).toBe(failing.checks.filter((check: { status: string }) => check.status === 'pass').length)
    expect(down.preflight_score).toBeLessThan(metrics.preflight_score)
    expect(down.preflight_checks).toBe(metrics.preflight_checks)
  })

  test("mcp_protocol_version is the spec's 2024-11-05 (spec 9); mcp_protocol_versions lists every version answered", async () => {
    const t = makeTestApp()
    const { body } = await t.json('/v5/metrics/public')
    expect(body.mcp_protocol_version).toBe('2024-11-05')
    expect(body.mcp_protocol_version).toBe(DEFAULT_PROTOCOL_VERSION)
    expect(body.mcp_protocol_versions).toEqual(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'])
    expect(body.mcp_protocol_versions).toEqual([...SERVED_PROTOCOL_VERSIONS])
    // Each initialize-era version is one initialize answers in; 2026-07-28 is answered by server/discover.
    for (const version of [body.mcp_protocol_version, ...body.mcp_protocol_versions.slice(0, -1)]) {
      const init = await t.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'c', version: '1' } } }) })
      expect(((await init.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(version)
    }
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
    const discover = await t.json('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } }) })
    expect([...discover.body.result.supportedVersions].reverse()).toEqual(body.mcp_protocol_versions)
  })
})

describe('/v5/traction', () => {
  test('the spec fields from the same sources as the metrics', async () => {
    const t = makeTestApp()
    await mcpCall(t, '192.0.2.5')
    const [traction, metrics] = [(await t.json('/v5/traction')).body, (await t.json('/v5/metrics')).body]
    expect(Object.keys(traction)).toEqual(expect.arrayContaining(['exchanges_covered', 'edge_cases_per_year', 'uptime_since', 'days_live', 'mcp_requests_today', 'unique_mcp_clients_today', 'sma_spec_version', 'verifiable_intent_rfc', 'x402_enabled', 'halt_monitor']))
    expect(traction).toMatchObject({ exchanges_covered: metrics.exchanges_covered, edge_cases_per_year: metrics.edge_cases_per_year, mcp_requests_today: 1, unique_mcp_clients_today: 1, sma_spec_version: 'v5.0', verifiable_intent_rfc: null })
    expect(traction.halt_monitor.status).toBe('disabled')
  })
})

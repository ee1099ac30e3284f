// Every tool is fully described from 2025-11-25 on, and its structuredContent always validates
// against the outputSchema it declares: checked with a JSON Schema 2020-12 validator (ajv, strict)
// over many real answers of every tool, tool errors included, through the endpoint itself.
import { describe, expect, test } from 'bun:test'
import Ajv2020 from 'ajv/dist/2020'
import { makeTestApp, type TestApp } from '../helpers/app'
import { FULLY_CONFIGURED } from '../helpers/configured'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { TOOLS } from '../../src/mcp/tools'

type Tool = { name: string; title: string; description: string; inputSchema: object; outputSchema: object; annotations: Record<string, boolean> }

const call = async (t: TestApp, name: string, args: unknown, ip = '203.0.113.20', version = '2025-11-25') => {
  const response = await t.request('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'mcp-protocol-version': version, 'cf-connecting-ip': ip },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  })
  const body = (await response.json()) as { result: { content: { text: string }[]; structuredContent: unknown; isError?: boolean } }
  return body.result
}

async function toolsOf(t: TestApp): Promise<Tool[]> {
  const response = await t.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
  return ((await response.json()) as { result: { tools: Tool[] } }).result.tools
}

describe('tool descriptions (2025-11-25)', () => {
  // Every venue's answers from one address: a per-minute rate above what the walk sends (the daily status allowance stays 3).
  const t = makeTestApp({ env: { MCP_ANON_DAILY_LIMIT: '3', MCP_ANON_RATE_PER_MINUTE: '100000' } })

  test('each tool has a title, all four annotations set explicitly, and an output schema 2020-12 compiles strictly; the order is fixed', async () => {
    const tools = await toolsOf(t)
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name))
    expect(await toolsOf(t)).toEqual(tools)
    const ajv = new Ajv2020({ strict: true, allErrors: true })
    for (const tool of tools) {
      expect(tool.title.length).toBeGreaterThan(3)
      expect(tool.annotations).toEqual({ readOnlyHint: expect.any(Boolean), destructiveHint: expect.any(Boolean), idempotentHint: expect.any(Boolean), openWorldHint: expect.any(Boolean) })
      expect(tool.annotations.destructiveHint).toBe(false)
      expect(tool.annotations.openWorldHint).toBe(false)
      expect(() => ajv.compile(tool.outputSchema)).not.toThrow()
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow()
    }
    // The one tool that writes: an audit row and a call of the caller's allowance per call.
    expect(tools.find((tool) => tool.name === 'get_market_status')!.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false })
  })

  test('structuredContent validates against the declared output schema over many real answers, tool errors included', async () => {
    const tools = await toolsOf(t)
    const ajv = new Ajv2020({ strict: true, allErrors: true })
    const validators = new Map(tools.map((tool) => [tool.name, ajv.compile(tool.outputSchema)]))
    const seen = { answers: 0, errors: new Set<string>() }
    const check = async (name: string, args: unknown, ip?: string) => {
      const result = await call(t, name, args, ip)
      expect(result.structuredContent).toEqual(JSON.parse(result.content[0]!.text))
      const validate = validators.get(name)!
      if (!validate(result.structuredContent)) throw new Error(`${name} ${JSON.stringify(args)}: ${ajv.errorsText(validate.errors)}`)
      seen.answers++
      if (result.isError) seen.errors.add((result.structuredContent as { error: string }).error)
      return result
    }
    const instants = ['2026-03-02T15:00:00.000Z', '2026-03-07T12:00:00.000Z', '2026-12-25T10:00:00.000Z', '2026-07-01T03:30:00.000Z', '2029-06-01T12:00:00.000Z']
    for (const instant of instants) {
      t.clock.set(instant)
      for (const mic of SUPPORTED_MICS) {
        await check('get_market_schedule', { mic })
        await check('get_market_calendar', { mic })
      }
      await check('list_exchanges', {})
    }
    t.clock.set('2026-03-02T15:00:00.000Z')
    for (const mic of SUPPORTED_MICS.slice(0, 3)) await check('get_market_status', { mic }, `198.51.100.${SUPPORTED_MICS.indexOf(mic)}`)
    for (const mic of ['XNYS', 'XLON', 'XJPX', 'XHKG']) await check('get_market_calendar', { mic, from: '2026-01-01', to: '2026-12-31' })
    await check('get_market_calendar', { mic: 'XNYS', from: '2031-01-01', to: '2031-01-10' })
    // Tool errors: the spec error object.
    await check('get_market_status', { mic: 'XXXX' })
    await check('get_market_schedule', { mic: 'nope' })
    await check('get_market_calendar', { mic: 'XNYS', from: '2026-13-01' })
    await check('get_market_calendar', { mic: 'XNYS', from: '2026-01-01', to: '2027-12-31' })
    await check('get_market_calendar', { mic: 'XNYS', from: '2026-02-01', to: '2026-01-01' })
    await check('get_market_status', { mic: 7 })
    await check('list_exchanges', { extra: true })
    await check('verify_receipt', {})
    await check('verify_receipt', { receipt: 'not json' })
    for (let i = 0; i < 4; i++) await check('get_market_status', { mic: 'XNYS' }, '198.51.100.200')
    // verify_receipt: valid, tampered, expired, unknown shapes.
    const receipt = (await call(t, 'get_market_status', { mic: 'XNYS' }, '198.51.100.201')).structuredContent as Record<string, unknown>
    await check('verify_receipt', { receipt })
    await check('verify_receipt', { receipt: JSON.stringify(receipt) })
    await check('verify_receipt', { receipt: { ...receipt, status: 'HALTED' } })
    await check('verify_receipt', { receipt: { hello: 'world' } })
    t.clock.advance(120_000)
    await check('verify_receipt', { receipt })
    // Signing offline: CRITICAL_FAILURE with status UNKNOWN.
    const signer = t.deps.signer
    ;(t.deps as { signer: unknown }).signer = Object.create(signer, { online: { value: false }, key: { value: null } })
    try {
      await check('get_market_status', { mic: 'XNYS' }, '198.51.100.202')
    } finally {
      ;(t.deps as { signer: unknown }).signer = signer
    }
    await check('get_payment_options', {})
    const configured = makeTestApp({ env: FULLY_CONFIGURED })
    const options = await call(configured, 'get_payment_options', {})
    expect(validators.get('get_payment_options')!(options.structuredContent)).toBe(true)

    expect(seen.answers).toBeGreaterThan(450)
    expect([...seen.errors].sort()).toEqual(['ANONYMOUS_LIMIT_REACHED', 'BAD_REQUEST', 'CRITICAL_FAILURE', 'INVALID_ARGUMENTS', 'INVALID_FROM', 'INVALID_RANGE', 'RANGE_TOO_LONG', 'UNKNOWN_MIC'])
  }, 60_000)

  test('the schemas are not vacuous: answers of another tool, and a receipt missing a signed member, fail them', async () => {
    const tools = await toolsOf(t)
    const ajv = new Ajv2020({ strict: true })
    const schema = (name: string) => ajv.compile(tools.find((tool) => tool.name === name)!.outputSchema)
    const schedule = (await call(t, 'get_market_schedule', { mic: 'XNYS' })).structuredContent as Record<string, unknown>
    const receipt = (await call(t, 'get_market_status', { mic: 'XNYS' }, '198.51.100.203')).structuredContent as Record<string, unknown>
    expect(schema('get_market_status')(schedule)).toBe(false)
    expect(schema('get_market_calendar')(schedule)).toBe(false)
    const { signature: _, ...unsigned } = receipt
    expect(schema('get_market_status')(unsigned)).toBe(false)
    expect(schema('get_market_status')({ ...receipt, status: 'MAYBE' })).toBe(false)
    expect(schema('get_market_schedule')({ ...schedule, next_open: 'tomorrow' })).toBe(false)
    expect(schema('list_exchanges')({ error: 'lowercase', message: 'x' })).toBe(false)
  })
})

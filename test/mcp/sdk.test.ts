// The tool endpoint through the official MCP SDK client over real HTTP, as an agent would use it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SLOW_SETUP_MS } from '../helpers/process'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { makeTestApp, type TestApp } from '../helpers/app'
import { verifyWithRegistry, type KeyRegistry } from '../helpers/verify'
import { SUPPORTED_MICS } from '../../src/calendar/mics'

let t: TestApp
let base: string
let registry: KeyRegistry

beforeAll(async () => {
  t = makeTestApp({ env: { MCP_ANON_DAILY_LIMIT: '50' } })
  t.app.listen({ port: 0, hostname: '127.0.0.1' })
  base = `http://127.0.0.1:${t.app.server!.port}`
  registry = (await (await fetch(`${base}/v5/keys`)).json()) as KeyRegistry
}, SLOW_SETUP_MS)

afterAll(async () => {
  await t.app.stop(true)
})

async function connect(options: { forceVersion?: string; headers?: Record<string, string> } = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: options.headers ?? {} } })
  if (options.forceVersion) {
    // The SDK always asks for its latest version; rewrite the initialize request to ask for an older one.
    const send = transport.send.bind(transport)
    transport.send = (message: JSONRPCMessage, sendOptions?: Parameters<typeof send>[1]) => {
      if ('method' in message && message.method === 'initialize') message = { ...message, params: { ...message.params, protocolVersion: options.forceVersion } }
      return send(message, sendOptions)
    }
  }
  const client = new Client({ name: 'openbell-test', version: '1.0.0' })
  await client.connect(transport)
  return { client, transport }
}

const textOf = (result: unknown) => JSON.parse((result as { content: { type: string; text: string }[] }).content[0]!.text)

describe('tool endpoint through the MCP SDK', () => {
  test('initialize with the SDK default (latest) version is echoed, and tools are listed with valid schemas', async () => {
    const { client } = await connect()
    expect(client.getServerVersion()?.name).toBe('openbell')
    expect(client.getInstructions()).toContain('UNKNOWN')
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_market_calendar', 'get_market_schedule', 'get_market_status', 'get_payment_options', 'list_exchanges', 'verify_receipt'])
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object')
      expect((tool.inputSchema as { additionalProperties?: unknown }).additionalProperties).toBe(false)
      expect(tool.description!.length).toBeGreaterThan(20)
      // 2025-11-25: every tool fully described (output-schemas.test.ts checks the schemas against real answers).
      expect(tool.outputSchema?.type).toBe('object')
      expect(Object.keys(tool.annotations ?? {}).sort()).toEqual(['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint'])
      expect(tool.title).toBeString()
    }
    expect(tools.filter((tool) => !tool.annotations!.readOnlyHint).map((tool) => tool.name)).toEqual(['get_market_status'])
    expect(tools.find((tool) => tool.name === 'verify_receipt')!.inputSchema.required).toEqual(['receipt'])
    await client.close()
  })

  test('a client forced to 2024-11-05 gets 2024-11-05 and text-only results', async () => {
    const { client, transport } = await connect({ forceVersion: '2024-11-05' })
    expect(transport.protocolVersion).toBe('2024-11-05')
    const result = await client.callTool({ name: 'get_market_status', arguments: { mic: 'XNYS' } })
    expect(result.structuredContent).toBeUndefined()
    expect(textOf(result).mic).toBe('XNYS')
    await client.close()
  })

  test('get_market_status gives a live receipt that verifies with noble from /v5/keys alone, and verify_receipt agrees', async () => {
    const { client } = await connect()
    const result = await client.callTool({ name: 'get_market_status', arguments: { mic: 'XLON' } })
    expect(result.isError).toBeFalsy()
    const receipt = textOf(result)
    expect(result.structuredContent).toEqual(receipt)
    expect(receipt).toMatchObject({ mic: 'XLON', receipt_mode: 'live', issuer: 'oracle.test' })
    expect(verifyWithRegistry(registry, receipt)).toBe(true)

    const valid = textOf(await client.callTool({ name: 'verify_receipt', arguments: { receipt } }))
    expect(valid).toMatchObject({ valid: true, reason: 'SIGNATURE_VALID', mic: 'XLON' })
    const tampered = { ...receipt, status: receipt.status === 'OPEN' ? 'CLOSED' : 'OPEN' }
    expect(verifyWithRegistry(registry, tampered)).toBe(false)
    const invalid = textOf(await client.callTool({ name: 'verify_receipt', arguments: { receipt: tampered } }))
    expect(invalid).toMatchObject({ valid: false, reason: 'INVALID_SIGNATURE' })
    const asText = textOf(await client.callTool({ name: 'verify_receipt', arguments: { receipt: JSON.stringify(receipt) } }))
    expect(asText.valid).toBe(true)
    await client.close()
  })

  test('get_market_schedule, list_exchanges and get_payment_options answer what the REST routes answer', async () => {
    const { client } = await connect()
    const schedule = textOf(await client.callTool({ name: 'get_market_schedule', arguments: { mic: 'XJPX' } }))
    const rest = (await (await fetch(`${base}/v5/schedule?mic=XJPX`)).json()) as Record<string, unknown>
    expect({ ...schedule, queried_at: null }).toEqual({ ...rest, queried_at: null })
    expect(schedule.lunch_break).toEqual({ start: '11:30', end: '12:30' })

    const calendar = textOf(await client.callTool({ name: 'get_market_calendar', arguments: { mic: 'XJPX', from: '2026-12-28', to: '2027-01-05' } }))
    expect(calendar).toEqual(await (await fetch(`${base}/v5/calendar?mic=XJPX&from=2026-12-28&to=2027-01-05`)).json())
    expect(calendar.days.find((day: { date: string }) => day.date === '2027-01-01')).toMatchObject({ kind: 'holiday' })
    const tooLong = await client.callTool({ name: 'get_market_calendar', arguments: { mic: 'XJPX', from: '2026-01-01', to: '2027-12-31' } })
    expect(tooLong.isError).toBe(true)
    expect(textOf(tooLong)).toMatchObject({ error: 'RANGE_TOO_LONG', max_days: 366 })

    const exchanges = textOf(await client.callTool({ name: 'list_exchanges', arguments: {} }))
    expect(exchanges).toEqual(await (await fetch(`${base}/v5/exchanges`)).json())
    expect(exchanges.exchanges).toHaveLength(SUPPORTED_MICS.length)

    const options = textOf(await client.callTool({ name: 'get_payment_options', arguments: {} }))
    expect(options.x402.prices_usdc['/v5/status']).toBe(t.config.x402.statusPrice)
    expect(options.x402.enabled).toBe(t.config.x402.payTo !== null)
    expect(options.instant_key.url).toBe(`${t.config.publicBaseUrl}/v5/keys/instant`)
    await client.close()
  })

  test('an unknown MIC is a tool error with the spec error object; an unknown tool is invalid params; bad arguments are a tool error for 2025-11-25 and invalid params before it', async () => {
    const { client } = await connect()
    const unknown = await client.callTool({ name: 'get_market_status', arguments: { mic: 'XXXX' } })
    expect(unknown.isError).toBe(true)
    expect(textOf(unknown)).toMatchObject({ error: 'UNKNOWN_MIC' })
    expect(textOf(unknown).supported).toEqual([...SUPPORTED_MICS])
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/-32602|unknown tool/i)
    // 2025-11-25 (SEP-1303): the model gets the validation message as a tool result and can correct the call.
    const bad = await client.callTool({ name: 'get_market_status', arguments: { mic: 'XNYS', extra: 1 } })
    expect(bad.isError).toBe(true)
    expect(textOf(bad)).toMatchObject({ error: 'INVALID_ARGUMENTS', message: expect.stringContaining('get_market_status') })
    expect(bad.structuredContent).toEqual(textOf(bad))
    await client.close()
    const older = (await connect({ forceVersion: '2025-06-18' })).client
    await expect(older.callTool({ name: 'get_market_status', arguments: { mic: 'XNYS', extra: 1 } })).rejects.toThrow(/-32602|invalid arguments/i)
    await expect(older.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/-32602|unknown tool/i)
    await older.close()
  })

  test('with the signer offline, get_market_status is a CRITICAL_FAILURE tool error (status UNKNOWN), not a JSON-RPC error', async () => {
    const { client } = await connect()
    const signer = t.deps.signer
    const offline = Object.create(signer, { online: { value: false }, key: { value: null } })
    ;(t.deps as { signer: unknown }).signer = offline
    try {
      const result = await client.callTool({ name: 'get_market_status', arguments: { mic: 'XNYS' } })
      expect(result.isError).toBe(true)
      expect(textOf(result)).toMatchObject({ error: 'CRITICAL_FAILURE', status: 'UNKNOWN' })
    } finally {
      ;(t.deps as { signer: unknown }).signer = signer
    }
    await client.close()
  })
})

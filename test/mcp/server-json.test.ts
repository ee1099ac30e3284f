// /.well-known/mcp/server.json: this deployment in the MCP registry's format, valid under the
// registry's published schema (vendored: test/fixtures/mcp-registry), remote Streamable HTTP at
// PUBLIC_BASE_URL + /mcp, with the version the endpoint's serverInfo reports.
import { describe, expect, test } from 'bun:test'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import schema from '../fixtures/mcp-registry/server.schema.2025-12-11.json'
import { makeTestApp } from '../helpers/app'
import { registryName } from '../../src/mcp/server-json'

const ajv = new Ajv({ strict: false, allErrors: true })
addFormats(ajv)
const validate = ajv.compile<unknown>(schema)

describe('server.json', () => {
  test('valid under the registry schema; the remote is this deployment plus /mcp; version equals serverInfo.version', async () => {
    const t = makeTestApp({ env: { PUBLIC_BASE_URL: 'https://bell.example.org' } })
    const { status, headers, body } = await t.json('/.well-known/mcp/server.json')
    expect(status).toBe(200)
    expect(headers.get('access-control-allow-origin')).toBeNull() // no Origin sent; CORS is open for it
    if (!validate(body as object)) throw new Error(ajv.errorsText(validate.errors))
    expect(body.$schema).toBe(schema.$id)
    expect(body.name).toBe('org.example.bell/openbell')
    expect(body.remotes).toEqual([expect.objectContaining({ type: 'streamable-http', url: 'https://bell.example.org/mcp' })])
    const init = await t.json('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', host: 'bell.example.org' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }) })
    expect(body.version).toBe(init.body.result.serverInfo.version)
  })

  test('the schema is not vacuous: a wrong transport, a long description or a bad name fail it', async () => {
    const { body } = await makeTestApp().json('/.well-known/mcp/server.json')
    expect(validate(body)).toBe(true)
    expect(validate({ ...body, remotes: [{ type: 'websocket', url: 'wss://x' }] })).toBe(false)
    expect(validate({ ...body, description: 'x'.repeat(101) })).toBe(false)
    expect(validate({ ...body, name: 'no slash' })).toBe(false)
  })

  test('registry names: the domain reversed', () => {
    expect(registryName('https://oracle.example')).toBe('example.oracle/openbell')
    expect(registryName('http://localhost:8080')).toBe('localhost/openbell')
    expect(registryName('http://127.0.0.1:8080')).toBe('127.0.0.1/openbell')
    expect(registryName('http://[::1]:8080')).toBe('--1/openbell')
  })
})

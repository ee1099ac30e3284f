// The tool endpoint with Authorization: Bearer, through the official MCP SDK client: from a 401
// alone, through RFC 9728 and RFC 8414 discovery (oauth4webapi), to a token whose calls are
// metered against its key like /v5/status; an expired or unknown token is a 401, never anonymous.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import * as oauth from 'oauth4webapi'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { issueKey } from '../../src/accounts/keys'
import { makeTestApp, type TestApp } from '../helpers/app'
import { SLOW_SETUP_MS } from '../helpers/process'

const FREE_LIMIT = 3
let t: TestApp
let base: string
const insecure = { [oauth.allowInsecureRequests]: true }

beforeAll(() => {
  t = makeTestApp({ now: '2026-03-10T15:00:00.000Z', env: { FREE_DAILY_LIMIT: String(FREE_LIMIT), MCP_ANON_DAILY_LIMIT: '1' } })
  t.app.listen({ port: 0, hostname: '127.0.0.1' })
  base = `http://127.0.0.1:${t.app.server!.port}`
  // PUBLIC_BASE_URL must be the URL clients discover from (RFC 8414 issuer comparison).
  t.config.publicBaseUrl = base
}, SLOW_SETUP_MS)
afterAll(async () => {
  await t.app.stop(true)
})

const initialize = (headers: Record<string, string>) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
  })

async function connect(token: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } })
  const client = new Client({ name: 'openbell-bearer-test', version: '1.0.0' })
  await client.connect(transport)
  return client
}

/** What an agent does with nothing but the 401: metadata → authorization server → token. */
async function tokenFromChallenge(challenge: string, key: string): Promise<string> {
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1]
  expect(metadataUrl).toBe(`${base}/.well-known/oauth-protected-resource/mcp`)
  const resource = new URL(`${base}/mcp`)
  const protectedResource = await oauth.processResourceDiscoveryResponse(resource, await oauth.resourceDiscoveryRequest(resource, insecure))
  const issuer = new URL(protectedResource.authorization_servers![0]!)
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }))
  const client: oauth.Client = { client_id: key }
  const response = await oauth.clientCredentialsGrantRequest(as, client, oauth.None(), new URLSearchParams(), insecure)
  return (await oauth.processClientCredentialsResponse(as, client, response)).access_token
}

describe('bearer tokens on the tool endpoint', () => {
  test('an unknown token is a 401 whose challenge leads, by discovery alone, to a working token metered against its key', async () => {
    const refused = await initialize({ authorization: 'Bearer not-a-real-token' })
    expect(refused.status).toBe(401)
    const challenge = refused.headers.get('www-authenticate')!
    expect(challenge).toStartWith('Bearer ')
    expect((await refused.json()) as Record<string, unknown>).toMatchObject({ error: 'invalid_token' })

    const { key, account } = await issueKey(t.deps.accounts, { plan: 'free', now: new Date(t.clock.now()) })
    const token = await tokenFromChallenge(challenge, key)
    const client = await connect(token)
    // The anonymous allowance is 1 a day; the key's free quota (3) applies instead.
    for (let call = 0; call < FREE_LIMIT; call++) {
      const result = await client.callTool({ name: 'get_market_status', arguments: { mic: 'XNYS' } })
      expect(result.isError).toBeFalsy()
    }
    const over = await client.callTool({ name: 'get_market_status', arguments: { mic: 'XNYS' } })
    expect(over.isError).toBe(true)
    expect(JSON.parse((over.content as { text: string }[])[0]!.text)).toMatchObject({ error: 'FREE_TIER_EXHAUSTED' })
    // Counted on the key: /v5/usage says so, and the audit rows carry the key, not an address.
    const usage = await t.json('/v5/usage', { headers: { 'x-oracle-key': key } })
    expect(usage.body.requests_today).toBe(FREE_LIMIT)
    const logged = t.db.query("SELECT count(*) AS n FROM audit_log WHERE surface = '/mcp:get_market_status' AND key_hash = ?").get(account.key_hash) as { n: number }
    expect(logged.n).toBe(FREE_LIMIT)
    await client.close()
  })

  test('an expired token is a 401 (not an anonymous call), and so is a token whose key was suspended', async () => {
    const { key, account } = await issueKey(t.deps.accounts, { plan: 'free', now: new Date(t.clock.now()) })
    const challenge = (await initialize({ authorization: 'Bearer x' })).headers.get('www-authenticate')!
    const token = await tokenFromChallenge(challenge, key)
    expect((await initialize({ authorization: `Bearer ${token}` })).status).toBe(200)
    t.clock.ms += 3600 * 1000
    const expired = await initialize({ authorization: `Bearer ${token}` })
    expect(expired.status).toBe(401)
    expect(expired.headers.get('www-authenticate')).toContain('resource_metadata=')
    t.clock.ms -= 3600 * 1000

    const fresh = await tokenFromChallenge(challenge, key)
    t.db.run("UPDATE api_keys SET status = 'suspended' WHERE id = ?", [account.id])
    await Bun.sleep(1100) // plan and status changes reach every surface within 1 s
    expect((await initialize({ authorization: `Bearer ${fresh}` })).status).toBe(401)
  })
})

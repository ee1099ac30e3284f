import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import * as oauth from 'oauth4webapi'
import { issueKey, type IssueKeyOptions } from '../../src/accounts/keys'
import { resolveBearer } from '../../src/accounts/bearer'
import { sha256Hex } from '../../src/crypto/hash'
import { makeTestApp, type TestApp } from '../helpers/app'

const NOW = '2026-03-10T15:00:00.000Z'
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

async function keyFor(harness: TestApp, options: Partial<IssueKeyOptions> = {}) {
  return issueKey(harness.deps.accounts, { plan: 'free', now: new Date(harness.clock.now()), ...options })
}
const tokenRequest = (harness: TestApp, body: string, headers: Record<string, string> = FORM, method = 'POST') =>
  harness.request('/oauth/token', { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body })
async function token(harness: TestApp, key: string): Promise<string> {
  const response = await tokenRequest(harness, `grant_type=client_credentials&client_id=${key}`)
  expect(response.status).toBe(200)
  return ((await response.json()) as { access_token: string }).access_token
}

describe('a standard OAuth client (oauth4webapi) gets a token from discovery alone', () => {
  let harness: TestApp
  let base: string
  beforeAll(() => {
    harness = makeTestApp({ now: NOW })
    harness.app.listen({ port: 0, hostname: '127.0.0.1' })
    base = `http://127.0.0.1:${harness.app.server!.port}`
    // The issuer must be the URL the client discovered from: PUBLIC_BASE_URL is that URL.
    harness.config.publicBaseUrl = base
  })
  afterAll(async () => {
    await harness.app.stop()
  })

  test('RFC 8414 discovery, client_credentials with client auth "none", then the token resolves to the key', async () => {
    const { key, account } = await keyFor(harness)
    const insecure = { [oauth.allowInsecureRequests]: true }
    const issuer = new URL(base)
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }))
    expect(as.issuer).toBe(base)
    expect(as.token_endpoint).toBe(`${base}/oauth/token`)
    const client: oauth.Client = { client_id: key }
    const response = await oauth.clientCredentialsGrantRequest(as, client, oauth.None(), new URLSearchParams({ scope: 'mcp' }), insecure)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const result = await oauth.processClientCredentialsResponse(as, client, response)
    expect(result).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'mcp' })
    const resolved = await resolveBearer(harness.deps, `Bearer ${result.access_token}`)
    expect(resolved).toMatchObject({ kind: 'ok', account: { id: account.id, key_prefix: account.key_prefix }, scope: 'mcp' })
  })

  test('RFC 9728 discovery of the tool endpoint names this server as its authorization server', async () => {
    const resource = new URL(`${base}/mcp`)
    const metadata = await oauth.processResourceDiscoveryResponse(resource, await oauth.resourceDiscoveryRequest(resource, { [oauth.allowInsecureRequests]: true }))
    expect(metadata.resource).toBe(`${base}/mcp`)
    expect(metadata.authorization_servers).toEqual([base])
    const root = (await (await fetch(`${base}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>
    expect(root).toEqual(metadata as unknown as Record<string, unknown>)
  })

  test('an invalid client seen through the real client: an error with the RFC 6749 code and a challenge', async () => {
    const insecure = { [oauth.allowInsecureRequests]: true }
    const issuer = new URL(base)
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }))
    const client: oauth.Client = { client_id: 'svc_free_' + 'a'.repeat(64) }
    const response = await oauth.clientCredentialsGrantRequest(as, client, oauth.None(), new URLSearchParams(), insecure)
    expect(response.status).toBe(401)
    const error = await oauth.processClientCredentialsResponse(as, client, response).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(oauth.WWWAuthenticateChallengeError)
    const challenge = error as oauth.WWWAuthenticateChallengeError
    expect(challenge.cause[0]!.scheme).toBe('basic')
    expect(await challenge.response.json()).toMatchObject({ error: 'invalid_client' })
  })
})

describe('POST /oauth/token', () => {
  test('a token: random, 3600 s, bearer, no-store; stored only as its hash', async () => {
    const harness = makeTestApp({ now: NOW, fileDatabase: true })
    const { key } = await keyFor(harness)
    const response = await tokenRequest(harness, `grant_type=client_credentials&client_id=${key}`, { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const body = (await response.json()) as Record<string, unknown>
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type'])
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'mcp' })
    const second = await token(harness, key)
    expect(second).not.toBe(body.access_token)
    const rows = harness.db.query('SELECT token_hash FROM oauth_tokens').all() as { token_hash: string }[]
    expect(rows.map((row) => row.token_hash).sort()).toEqual([sha256Hex(body.access_token as string), sha256Hex(second)].sort())
    harness.db.run('PRAGMA wal_checkpoint(TRUNCATE)')
    const file = await Bun.file(harness.config.databasePath).text()
    expect(file).not.toContain((body.access_token as string).slice(4))
    // Neither the key nor the token reaches the log.
    const log = JSON.stringify(harness.log.lines)
    expect(log).not.toContain(key)
    expect(log).not.toContain(body.access_token as string)
  })

  test('client_id may come as HTTP Basic (empty secret)', async () => {
    const harness = makeTestApp({ now: NOW })
    const { key } = await keyFor(harness)
    const response = await tokenRequest(harness, 'grant_type=client_credentials', { ...FORM, authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` })
    expect(response.status).toBe(200)
  })

  const errorCases: [string, string, Record<string, string>, number, string][] = [
    ['wrong content type (JSON)', JSON.stringify({ grant_type: 'client_credentials', client_id: 'x' }), { 'content-type': 'application/json' }, 400, 'invalid_request'],
    ['no content type', 'grant_type=client_credentials&client_id=KEY', {}, 400, 'invalid_request'],
    ['missing grant_type', 'client_id=KEY', FORM, 400, 'invalid_request'],
    ['another grant type', 'grant_type=password&client_id=KEY&username=a&password=b', FORM, 400, 'unsupported_grant_type'],
    ['authorization_code', 'grant_type=authorization_code&code=x&client_id=KEY', FORM, 400, 'unsupported_grant_type'],
    ['missing client_id', 'grant_type=client_credentials', FORM, 400, 'invalid_request'],
    ['empty client_id', 'grant_type=client_credentials&client_id=', FORM, 400, 'invalid_request'],
    ['repeated client_id', 'grant_type=client_credentials&client_id=KEY&client_id=KEY', FORM, 400, 'invalid_request'],
    ['unknown scope', 'grant_type=client_credentials&client_id=KEY&scope=admin', FORM, 400, 'invalid_scope'],
    ['another resource', 'grant_type=client_credentials&client_id=KEY&resource=https%3A%2F%2Felsewhere.example%2Fmcp', FORM, 400, 'invalid_target'],
    ['unknown key', `grant_type=client_credentials&client_id=svc_free_${'0'.repeat(64)}`, FORM, 401, 'invalid_client'],
    ['not a key at all', 'grant_type=client_credentials&client_id=hello', FORM, 401, 'invalid_client'],
  ]
  for (const [name, body, headers, status, code] of errorCases) {
    test(`${name} → ${status} ${code}, RFC 6749 shape, nothing stored`, async () => {
      const harness = makeTestApp({ now: NOW })
      const { key } = await keyFor(harness)
      const response = await tokenRequest(harness, body.replaceAll('KEY', key), headers)
      expect(response.status).toBe(status)
      const answer = (await response.json()) as Record<string, unknown>
      expect(Object.keys(answer).sort()).toEqual(['error', 'error_description'])
      expect(answer.error).toBe(code)
      expect(response.headers.get('cache-control')).toBe('no-store')
      if (status === 401) expect(response.headers.get('www-authenticate')).toStartWith('Basic realm="openbell"')
      expect((harness.db.query('SELECT count(*) AS n FROM oauth_tokens').get() as { n: number }).n).toBe(0)
    })
  }

  test('suspended, cancelled or expired key → 401 invalid_client (with the status)', async () => {
    const harness = makeTestApp({ now: NOW })
    const { key, account } = await keyFor(harness)
    await harness.deps.accounts.setStatus(account.id, 'suspended')
    const suspended = await tokenRequest(harness, `grant_type=client_credentials&client_id=${key}`)
    expect(suspended.status).toBe(401)
    expect(await suspended.json()).toMatchObject({ error: 'invalid_client', status: 'suspended' })
    const expiring = await keyFor(harness, { plan: 'sandbox', expiresAt: new Date(harness.clock.now() + 1000).toISOString() })
    harness.clock.advance(1000)
    expect((await tokenRequest(harness, `grant_type=client_credentials&client_id=${expiring.key}`)).status).toBe(401)
  })

  test('a body over 4 KiB → 413 invalid_request', async () => {
    const harness = makeTestApp({ now: NOW })
    const response = await tokenRequest(harness, `grant_type=client_credentials&client_id=${'a'.repeat(5000)}`)
    expect(response.status).toBe(413)
    expect(((await response.json()) as Record<string, unknown>).error).toBe('invalid_request')
  })

  test('other methods → 405 with Allow: POST', async () => {
    const harness = makeTestApp({ now: NOW })
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const response = await tokenRequest(harness, '', FORM, method)
      expect([method, response.status, response.headers.get('allow')]).toEqual([method, 405, 'POST, OPTIONS'])
      expect(((await response.json()) as Record<string, unknown>).error).toBe('invalid_request')
    }
  })
})

describe('resolveBearer', () => {
  test('expires after 3600 s: 401 invalid_token with a challenge naming the resource metadata, never anonymous', async () => {
    const harness = makeTestApp({ now: NOW, env: { PUBLIC_BASE_URL: 'https://bell.example' } })
    const { key } = await keyFor(harness)
    const access = await token(harness, key)
    harness.clock.advance(3600 * 1000 - 1)
    expect((await resolveBearer(harness.deps, `Bearer ${access}`)).kind).toBe('ok')
    harness.clock.advance(1)
    const expired = await resolveBearer(harness.deps, `Bearer ${access}`)
    expect(expired).toMatchObject({ kind: 'rejected', status: 401, error: 'invalid_token' })
    if (expired.kind !== 'rejected') throw new Error('unreachable')
    expect(expired.response.status).toBe(401)
    expect(expired.response.headers.get('www-authenticate')).toContain('error="invalid_token"')
    expect(expired.response.headers.get('www-authenticate')).toContain('resource_metadata="https://bell.example/.well-known/oauth-protected-resource/mcp"')
    expect(await expired.response.json()).toMatchObject({ error: 'invalid_token' })
  })

  test('unknown token 401, malformed header 400, no header none', async () => {
    const harness = makeTestApp({ now: NOW })
    expect(await resolveBearer(harness.deps, null)).toEqual({ kind: 'none' })
    expect(await resolveBearer(harness.deps, `Bearer obt_${'A'.repeat(43)}`)).toMatchObject({ kind: 'rejected', status: 401, error: 'invalid_token' })
    expect(await resolveBearer(harness.deps, 'Bearer nonsense')).toMatchObject({ kind: 'rejected', status: 401 })
    expect(await resolveBearer(harness.deps, 'Basic abc')).toMatchObject({ kind: 'rejected', status: 400, error: 'invalid_request' })
    expect(await resolveBearer(harness.deps, 'Bearer')).toMatchObject({ kind: 'rejected', status: 400 })
  })

  test('a token dies with its key: suspension revokes it for good', async () => {
    const harness = makeTestApp({ now: NOW })
    const { key, account } = await keyFor(harness, { plan: 'pro' })
    const access = await token(harness, key)
    await harness.deps.accounts.setStatus(account.id, 'suspended')
    expect(await resolveBearer(harness.deps, `Bearer ${access}`)).toMatchObject({ kind: 'rejected', status: 401, error: 'invalid_token' })
    await harness.deps.accounts.setStatus(account.id, 'active')
    expect((await resolveBearer(harness.deps, `Bearer ${access}`)).kind).toBe('rejected')
    expect((await resolveBearer(harness.deps, `Bearer ${await token(harness, key)}`)).kind).toBe('ok')
  })

  test('a suspension or cancellation deletes the tokens at once, even when none is used before the key is reactivated', async () => {
    const harness = makeTestApp({ now: NOW })
    const tokensOf = (accountId: number) => (harness.db.query('SELECT count(*) AS n FROM oauth_tokens WHERE account_id = ?').get(accountId) as { n: number }).n
    const { key, account } = await keyFor(harness, { plan: 'pro' })
    // The operator's CLI path (the key store).
    const first = await token(harness, key)
    await harness.deps.accounts.setStatus(account.id, 'suspended')
    expect(tokensOf(account.id)).toBe(0)
    await harness.deps.accounts.setStatus(account.id, 'active')
    expect(await resolveBearer(harness.deps, `Bearer ${first}`)).toMatchObject({ kind: 'rejected', status: 401, error: 'invalid_token' })
    // The billing path (account-write steps inside the event's unit of work).
    const second = await token(harness, key)
    await harness.deps.transactor.run(() => harness.deps.accountWrites.setStatus(account.id, 'cancelled'))
    expect(tokensOf(account.id)).toBe(0)
    await harness.deps.transactor.run(() => harness.deps.accountWrites.setStatus(account.id, 'active'))
    harness.clock.advance(1001) // past the key cache
    expect(await resolveBearer(harness.deps, `Bearer ${second}`)).toMatchObject({ kind: 'rejected', status: 401, error: 'invalid_token' })
    // Reactivation itself revokes nothing.
    const third = await token(harness, key)
    await harness.deps.accounts.setStatus(account.id, 'active')
    expect((await resolveBearer(harness.deps, `Bearer ${third}`)).kind).toBe('ok')
  })
})

describe('discovery documents', () => {
  test('RFC 8414 metadata: issuer is PUBLIC_BASE_URL exactly; the authorization endpoint answers unsupported_response_type', async () => {
    const harness = makeTestApp({ now: NOW, env: { PUBLIC_BASE_URL: 'https://bell.example' } })
    const { body } = await harness.json('/.well-known/oauth-authorization-server')
    expect(body).toMatchObject({
      issuer: 'https://bell.example',
      token_endpoint: 'https://bell.example/oauth/token',
      authorization_endpoint: 'https://bell.example/oauth/authorize',
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['none'],
      response_types_supported: [],
    })
    const authorize = await harness.json('/oauth/authorize?response_type=code&client_id=x&redirect_uri=https%3A%2F%2Fevil.example%2Fcb')
    expect(authorize.status).toBe(400)
    expect(authorize.headers.get('location')).toBeNull()
    expect(authorize.body.error).toBe('unsupported_response_type')
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      expect((await harness.json(path)).body).toMatchObject({ resource: 'https://bell.example/mcp', authorization_servers: ['https://bell.example'], bearer_methods_supported: ['header'] })
    }
  })
})

// The documents agents read first: content types, caching, validity, and values from live sources.
import { describe, expect, test } from 'bun:test'
import { makeTestApp, tempDir } from '../helpers/app'
import { SLOW_SETUP_MS, startService } from '../helpers/process'
import { AGENT_METADATA_VERSION, agentMetadata } from '../../src/discovery/agent-metadata'
import { TEXT_DOCUMENTS, TextDocuments, renderTemplate, documentValues } from '../../src/discovery/text-documents'
import { TOOLS } from '../../src/mcp/tools'
import { SERVED_PROTOCOL_VERSIONS } from '../../src/mcp/protocol'
import { sha256Hex } from '../../src/crypto/hash'
import { loadConfig } from '../../src/config'
import { SANDBOX_CALLS, SANDBOX_DAYS } from '../../src/catalogue/limits'
import { SAMPLE_DOOR_PER_MINUTE } from '../../src/market/routes/safe-to-trade-shared'

describe('text documents', () => {
  test('every template renders (no unknown placeholder is left) with the configured base URL', () => {
    const t = makeTestApp({ env: { PUBLIC_BASE_URL: 'https://bell.example' } })
    for (const [path, { template }] of Object.entries(TEXT_DOCUMENTS)) {
      const body = renderTemplate(template, documentValues(t.deps))
      expect(body).not.toContain('{{')
      if (path !== '/robots.txt') expect(body).toContain('https://bell.example/')
    }
    expect(() => renderTemplate('{{nope}}', {})).toThrow(/unknown value/)
    // Figures come from the constants that are enforced, not typed into the text.
    const full = renderTemplate(TEXT_DOCUMENTS['/llms-full.txt'].template, documentValues(t.deps))
    expect(full).toContain(`${SANDBOX_DAYS} days or ${SANDBOX_CALLS} calls`)
    expect(full).toContain(`(${SAMPLE_DOOR_PER_MINUTE} per minute per address)`)
    expect(TEXT_DOCUMENTS['/llms-full.txt'].template).not.toMatch(/\b(7 days|200 calls|60 per minute)\b/)
  })

  test('x402 payment is offered as available only where X402_PAY_TO is set', () => {
    const bare = makeTestApp()
    const paying = makeTestApp({ env: { X402_PAY_TO: '0x' + '5'.repeat(40) } })
    for (const [path, { template }] of Object.entries(TEXT_DOCUMENTS)) {
      if (!template.includes('x402')) continue
      expect({ path, says: renderTemplate(template, documentValues(bare.deps)).includes('not configured on this server') }).toEqual({ path, says: true })
      expect({ path, says: renderTemplate(template, documentValues(paying.deps)).includes('not configured on this server') }).toEqual({ path, says: false })
    }
  })

  test('llms.txt has the llmstxt.org layout: one H1, a blockquote summary, H2 sections of link lists', async () => {
    const t = makeTestApp()
    const response = await t.request('/llms.txt')
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const lines = (await response.text()).split('\n')
    expect(lines[0]).toMatch(/^# \S/)
    expect(lines.filter((line) => line.startsWith('# '))).toHaveLength(1)
    expect(lines.find((line) => line.trim() !== '' && !line.startsWith('# '))).toMatch(/^> /)
    const sections = lines.filter((line) => line.startsWith('## '))
    expect(sections.length).toBeGreaterThanOrEqual(3)
    const links = lines.filter((line) => line.startsWith('- '))
    for (const link of links) expect(link).toMatch(/^- \[[^\]]+\]\(https?:\/\/[^)]+\)(: .+)?$/)
    expect(links.length).toBeGreaterThan(8)
  })

  test('SKILL.md has YAML front matter with name and description, an ETag of its content and Last-Modified; 304 on either validator', async () => {
    const t = makeTestApp()
    const response = await t.request('/SKILL.md')
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    const body = await response.text()
    const front = /^---\n([\s\S]*?)\n---\n/.exec(body)![1]!
    // Agent Skills limits: name lowercase letters, digits and hyphens, at most 64; description at most 1024.
    expect(front).toMatch(/^name: [a-z0-9-]{1,64}$/m)
    expect(front).toMatch(/^description: .{40,1024}$/m)
    // And it is YAML a parser reads as exactly those two strings (an unquoted ': ' would break it).
    const parsed = Bun.YAML.parse(front) as Record<string, unknown>
    expect(Object.keys(parsed)).toEqual(['name', 'description'])
    expect(typeof parsed.description).toBe('string')
    const etag = response.headers.get('etag')!
    expect(etag).toBe(`"${sha256Hex(body).slice(0, 32)}"`)
    const lastModified = response.headers.get('last-modified')!
    expect(Date.parse(lastModified)).toBe(Math.floor(t.clock.now() / 1000) * 1000)
    const byTag = await t.request('/SKILL.md', { headers: { 'if-none-match': etag } })
    expect(byTag.status).toBe(304)
    expect(await byTag.text()).toBe('')
    expect((await t.request('/SKILL.md', { headers: { 'if-modified-since': lastModified } })).status).toBe(304)
    expect((await t.request('/SKILL.md', { headers: { 'if-none-match': '"other"' } })).status).toBe(200)
    expect((await t.request('/SKILL.md', { headers: { 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() } })).status).toBe(200)
  })

  test('a calendar reload that changes a data_version changes the ETag and Last-Modified', () => {
    const t = makeTestApp()
    const real = t.deps.calendars.snapshot()
    let snapshot = real
    const documents = new TextDocuments({ config: t.config, clock: t.clock, calendars: { snapshot: () => snapshot } as never })
    const first = documents.get('/llms.txt')
    t.clock.advance(5000)
    expect(documents.get('/llms.txt')).toBe(first)
    const entry = real.entries.get('XNYS')!
    if (entry.state !== 'loaded') throw new Error('XNYS calendar not loaded')
    snapshot = { ...real, entries: new Map([...real.entries, ['XNYS', { ...entry, calendar: { ...entry.calendar, dataVersion: '2099.1.0' } }]]) } as typeof real
    const second = documents.get('/llms.txt')
    expect(second.body).toContain('XNYS 2099.1.0')
    expect(second.etag).not.toBe(first.etag)
    expect(second.lastModified).toBe(first.lastModified + 5000)
  })

  test('every document: its content type and caching headers; a 304 repeats the validators and caching', async () => {
    const t = makeTestApp({ env: { SECURITY_CONTACT: 'mailto:security@bell.example' } })
    const expected: [string, string, string][] = [
      ['/robots.txt', 'text/plain; charset=utf-8', 'public, max-age=300'],
      ['/llms.txt', 'text/plain; charset=utf-8', 'public, max-age=300'],
      ['/llms-full.txt', 'text/plain; charset=utf-8', 'public, max-age=300'],
      ['/SKILL.md', 'text/markdown; charset=utf-8', 'public, max-age=300'],
      ['/.well-known/agent.json', 'application/json; charset=utf-8', 'public, max-age=300'],
      ['/.well-known/security.txt', 'text/plain; charset=utf-8', 'public, max-age=86400'],
      ['/openapi.json', 'application/json; charset=utf-8', 'public, max-age=300'],
    ]
    for (const [path, type, cache] of expected) {
      const response = await t.request(path)
      expect({ path, status: response.status, type: response.headers.get('content-type'), cache: response.headers.get('cache-control') }).toEqual({ path, status: 200, type, cache })
    }
    for (const path of Object.keys(TEXT_DOCUMENTS)) {
      const response = await t.request(path)
      const etag = response.headers.get('etag')!
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/)
      const again = await t.request(path, { headers: { 'if-none-match': `"other", ${etag}` } })
      expect({ path, status: again.status }).toEqual({ path, status: 304 })
      expect(again.headers.get('etag')).toBe(etag)
      expect(again.headers.get('last-modified')).toBe(response.headers.get('last-modified'))
      expect(again.headers.get('cache-control')).toBe('public, max-age=300')
      // If-None-Match, when sent, decides alone (RFC 9110 13.2.2): a stale tag is a 200 even with a matching date.
      const stale = await t.request(path, { headers: { 'if-none-match': '"other"', 'if-modified-since': response.headers.get('last-modified')! } })
      expect({ path, status: stale.status }).toEqual({ path, status: 200 })
    }
  })

  test('robots.txt allows the API and keeps crawlers out of the operator endpoints', async () => {
    const text = await (await makeTestApp().request('/robots.txt')).text()
    expect(text).toMatch(/^User-agent: \*$/m)
    expect(text).toMatch(/^Disallow: \/v5\/admin\/$/m)
  })
})

describe('/.well-known/agent.json', () => {
  test('names the tools of the tool registry, the protocol versions, key discovery and the fail-closed rules', async () => {
    const t = makeTestApp({ env: { PUBLIC_BASE_URL: 'https://bell.example' } })
    const { status, body } = await t.json('/.well-known/agent.json')
    expect(status).toBe(200)
    expect(body.mcp.tools).toEqual(TOOLS.map((tool) => tool.name))
    expect(body.mcp.protocol_versions).toEqual([...SERVED_PROTOCOL_VERSIONS])
    expect(body.mcp.protocol_versions).toContain('2026-07-28')
    expect(body.mcp.url).toBe('https://bell.example/mcp')
    expect(body.rest_api.openapi_url).toBe('https://bell.example/openapi.json')
    expect(body.trust).toMatchObject({ signing_algorithm: 'Ed25519', receipt_ttl_seconds: 60, fail_closed: true })
    expect(body.trust.key_discovery).toContain('https://bell.example/.well-known/jwks.json')
    expect(body.safety).toMatchObject({ unknown_means_closed: true, never_act_after_expires_at: true })
    expect(body.spec_version).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    // A capability is claimed exactly when its route is served.
    const served = new Set(t.app.routes.map((route) => route.path))
    expect(body.capabilities.safe_to_trade).toBe(served.has('/v1/safe-to-trade'))
    expect(body.capabilities.stream).toBe(served.has('/v5/stream'))
    expect(body.capabilities.webhooks).toBe(served.has('/v5/webhooks/subscribe'))
    expect(body.capabilities.calendar).toBe(served.has('/v5/calendar'))
    expect(body.capabilities.calendar).toBe(true)
    expect(body.mcp.auth.bearer_token_endpoint).toBe(served.has('/oauth/token') ? 'https://bell.example/oauth/token' : null)
  })

  test('spec_version moves with the content: the recorded hash of the content for a fixed configuration matches', () => {
    // When this fails, the document's content changed: set AGENT_METADATA_VERSION to today's date
    // and record the new hash here.
    const recorded = { version: '2026-12-06', sha256: 'd5bcec102d03dd6be6feebb30e5198ef38af3c6874086a16169dfa5efe6370b1' }
    const config = loadConfig({ ISSUER: 'oracle.test', DATA_DIR: '/nonexistent' })
    // Every capability's route served (the set a complete build serves).
    const served = new Set(['/v5/batch', '/v1/safe-to-trade', '/v5/stream', '/v5/webhooks/subscribe', '/v5/audit/digest', '/v1/witness/checkpoints', '/v5/calendar', '/oauth/token'])
    const content = JSON.stringify({ ...agentMetadata({ config }, served), spec_version: null })
    expect(AGENT_METADATA_VERSION).toBe(recorded.version)
    expect(sha256Hex(content)).toBe(recorded.sha256)
  })
})

describe('/.well-known/security.txt', () => {
  test('RFC 9116 fields from SECURITY_CONTACT; Expires within a year', async () => {
    const t = makeTestApp({ env: { SECURITY_CONTACT: 'mailto:security@bell.example' } })
    const response = await t.request('/.well-known/security.txt')
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const fields = Object.fromEntries((await response.text()).trim().split('\n').map((line) => line.split(/: (.*)/s).slice(0, 2)))
    expect(fields.Contact).toBe('mailto:security@bell.example')
    const expires = Date.parse(fields.Expires)
    expect(expires).toBeGreaterThan(t.clock.now())
    expect(expires - t.clock.now()).toBeLessThan(365 * 86_400_000)
    expect(fields.Canonical).toBe(`${t.config.publicBaseUrl}/.well-known/security.txt`)
    expect(fields['Preferred-Languages']).toBe('en')
  })

  test('404 without a contact (a security.txt without Contact would be invalid)', async () => {
    expect((await makeTestApp().json('/.well-known/security.txt')).status).toBe(404)
  })

  test('the service started without a contact warns at start-up and answers 404; with one, no warning and 200', async () => {
    const warning = 'no SECURITY_CONTACT configured'
    const without = await startService({ DATA_DIR: tempDir(), SECURITY_CONTACT: '' })
    const withContact = await startService({ DATA_DIR: tempDir(), SECURITY_CONTACT: 'mailto:security@bell.example' })
    try {
      expect((await fetch(`${without.base}/.well-known/security.txt`)).status).toBe(404)
      expect(without.output()).toContain(warning)
      expect((await fetch(`${withContact.base}/.well-known/security.txt`)).status).toBe(200)
      expect(withContact.output()).not.toContain(warning)
    } finally {
      without.process.kill()
      withContact.process.kill()
      await Promise.all([without.process.exited, withContact.process.exited])
    }
  }, SLOW_SETUP_MS)
})

import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../src/config'

describe('config', () => {
  test('starts with no configuration at all', () => {
    const config = loadConfig({})
    expect(config.port).toBe(8080)
    expect(config.issuer).toBe('localhost')
    expect(config.dataDir.endsWith('/data')).toBe(true)
    expect(config.databasePath.endsWith('/data/openbell.sqlite')).toBe(true)
    // A plain VPS: the TCP peer, not a header any client can set.
    expect(config.clientIpHeader).toBeNull()
    expect(config.adminKey).toBeNull()
    // Links point where the service listens (port included).
    expect(config.publicBaseUrl).toBe('http://localhost:8080')
    expect(config.reusePort).toBe(false)
  })

  const bad: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['SIGNING_KEY', { SIGNING_KEY: 'abc' }],
    ['SIGNING_KEY', { SIGNING_KEY: 'a'.repeat(64), SIGNING_KEY_FILE: '/k' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['KEY_VALID_FROM', { KEY_VALID_FROM: 'yesterday' }],
    ['KEY_VALID_UNTIL', { KEY_VALID_FROM: '2026-01-01T00:00:00Z', KEY_VALID_UNTIL: '2025-01-01T00:00:00Z' }],
    ['ISSUER', { ISSUER: 'https://oracle.example/' }],
    ['ADMIN_KEY', { ADMIN_KEY: 'short' }],
    ['HOST', { HOST: 'not_a_host' }],
    ['HOST', { HOST: 'bad host' }],
    ['REUSE_PORT', { REUSE_PORT: 'yes' }],
  ]
  for (const [variable, env] of bad) {
    test(`a bad ${variable} stops the start with a message naming it (${JSON.stringify(env)})`, () => {
      let error: unknown
      try {
        loadConfig(env)
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as ConfigError).variable).toBe(variable)
      expect((error as Error).message.startsWith(`${variable}:`)).toBe(true)
    })
  }

  test('a secret value is never echoed in the error', () => {
    expect(() => loadConfig({ ADMIN_KEY: 'secret12' })).toThrow(/value hidden/)
  })

  test('empty CLIENT_IP_HEADER means the TCP peer; other empty values mean unset', () => {
    expect(loadConfig({ CLIENT_IP_HEADER: '' }).clientIpHeader).toBeNull()
    expect(loadConfig({ PORT: '' }).port).toBe(8080)
  })

  test('the README configuration table lists every variable', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    for (const name of Object.keys(CONFIG_VARIABLES)) expect(readme).toContain(`| \`${name}\``)
  })

  test('the README configuration table gives each variable the default the code uses', () => {
    const rows = readFileSync(new URL('../README.md', import.meta.url), 'utf8').split('\n').filter((line) => line.startsWith('| `'))
    const defaults = Object.entries(CONFIG_VARIABLES as Record<string, { default?: string }>).filter(([, spec]) => spec.default)
    expect(defaults.length).toBeGreaterThan(10)
    for (const [name, spec] of defaults) {
      const column = rows.find((row) => row.startsWith(`| \`${name}\` |`))?.split(' | ')[1]
      expect(`${name}: ${column}`).toContain(`\`${spec.default}\``)
    }
  })

  test('a list-valued variable names the allowed values in its error', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow('LOG_LEVEL: must be one of debug, info, warn, error (got "loud")')
    expect(() => loadConfig({ HALT_FEED_FORMAT: 'xml' })).toThrow('HALT_FEED_FORMAT: must be one of rss, json')
  })

  test('HOST accepts IP literals and host names', () => {
    for (const host of ['127.0.0.1', '::', '::1', 'localhost', 'api.example.com', '0.0.0.0']) expect(loadConfig({ HOST: host }).host).toBe(host)
  })

  test('PUBLIC_BASE_URL defaults to where the service listens when ISSUER is localhost', () => {
    expect(loadConfig({ PORT: '9001' }).publicBaseUrl).toBe('http://localhost:9001')
    expect(loadConfig({ PORT: '9001', HOST: '127.0.0.1' }).publicBaseUrl).toBe('http://127.0.0.1:9001')
    expect(loadConfig({ PORT: '9001', HOST: '::1' }).publicBaseUrl).toBe('http://[::1]:9001')
    expect(loadConfig({ PORT: '9001', ISSUER: 'oracle.example' }).publicBaseUrl).toBe('https://oracle.example')
    expect(loadConfig({ PORT: '9001', PUBLIC_BASE_URL: 'https://x.example' }).publicBaseUrl).toBe('https://x.example')
  })

  test('DATA_DIR defaults beside the program (the project root from source), not the working directory', () => {
    const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '')
    const cwd = process.cwd()
    process.chdir('/tmp')
    try {
      expect(loadConfig({}).dataDir).toBe(`${root}/data`)
    } finally {
      process.chdir(cwd)
    }
  })
})

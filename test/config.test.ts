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
    expect(config.clientIpHeader).toBe('cf-connecting-ip')
    expect(config.adminKey).toBeNull()
    expect(config.publicBaseUrl).toBe('http://localhost')
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
})

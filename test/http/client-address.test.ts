import { describe, expect, test } from 'bun:test'
import { clientAddress, normaliseAddress } from '../../src/http/client-address'

const request = (headers: Record<string, string>) => new Request('http://localhost/', { headers })

describe('client address', () => {
  test('comes only from the configured header; other forwarding headers are ignored', () => {
    expect(clientAddress(request({ 'cf-connecting-ip': '203.0.113.7', 'x-forwarded-for': '198.51.100.1' }), 'cf-connecting-ip', null)).toBe('203.0.113.7')
    expect(clientAddress(request({ 'x-forwarded-for': '198.51.100.1', 'x-real-ip': '198.51.100.2' }), 'cf-connecting-ip', null)).toBe('none')
  })

  test('IPv6 is folded to its /64', () => {
    expect(normaliseAddress('2001:db8:abcd:12:1:2:3:4')).toBe('2001:db8:abcd:12::/64')
    expect(normaliseAddress('2001:DB8:ABCD:0012:ffff::1')).toBe('2001:db8:abcd:12::/64')
    expect(normaliseAddress('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(normaliseAddress('::1')).toBe('0:0:0:0::/64')
    expect(normaliseAddress('[2001:db8:1:2::5]')).toBe('2001:db8:1:2::/64')
    expect(normaliseAddress('::ffff:192.0.2.5')).toBe('192.0.2.5')
  })

  test('two hosts in one /64 share a key; different /64s do not', () => {
    expect(normaliseAddress('2001:db8:1:2::a')).toBe(normaliseAddress('2001:db8:1:2:ffff::b'))
    expect(normaliseAddress('2001:db8:1:2::a')).not.toBe(normaliseAddress('2001:db8:1:3::a'))
  })

  test('an empty header value is the single key none; junk is bounded', () => {
    expect(clientAddress(request({ 'cf-connecting-ip': '  ' }), 'cf-connecting-ip', null)).toBe('none')
    expect(normaliseAddress('x'.repeat(500))).toHaveLength(64)
  })

  test('without a header configured, the TCP peer address', () => {
    const server = { requestIP: () => ({ address: '2001:db8:9:9:1::1' }) }
    expect(clientAddress(request({ 'cf-connecting-ip': '203.0.113.7' }), null, server)).toBe('2001:db8:9:9::/64')
    expect(clientAddress(request({}), null, { requestIP: () => null })).toBe('none')
  })
})

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

  test('an empty header value without a peer is the single key none; junk is never a key of its own', () => {
    expect(clientAddress(request({ 'cf-connecting-ip': '  ' }), 'cf-connecting-ip', null)).toBe('none')
    expect(normaliseAddress('x'.repeat(500))).toBe('none')
  })

  test('without a header configured, the TCP peer address', () => {
    const server = { requestIP: () => ({ address: '2001:db8:9:9:1::1' }) }
    expect(clientAddress(request({ 'cf-connecting-ip': '203.0.113.7' }), null, server)).toBe('2001:db8:9:9::/64')
    expect(clientAddress(request({}), null, { requestIP: () => null })).toBe('none')
  })

  const peer = { requestIP: () => ({ address: '198.51.100.77' }) }
  const viaHeader = (value: string) => clientAddress(request({ 'cf-connecting-ip': value }), 'cf-connecting-ip', peer)

  test('forms that are not an IP literal fall back to the peer instead of making a fresh key', () => {
    for (const spoof of ['01.2.3.4', '1.2.3.4:80', '1.2.3.04', 'example.com', '1.2.3.4.5', 'x'.repeat(300)]) expect(viaHeader(spoof)).toBe('198.51.100.77')
  })

  test('an IPv4-mapped IPv6 address is its IPv4 address, in either notation', () => {
    expect(viaHeader('::ffff:1.2.3.4')).toBe('1.2.3.4')
    expect(viaHeader('::ffff:0102:0304')).toBe('1.2.3.4')
    expect(viaHeader('0:0:0:0:0:ffff:1.2.3.4')).toBe('1.2.3.4')
    expect(clientAddress(request({}), null, { requestIP: () => ({ address: '::ffff:203.0.113.9' }) })).toBe('203.0.113.9')
  })

  test('IPv6 in any spelling of one /64 is one key', () => {
    const keys = new Set(['2001:db8:1:2::1', '2001:0db8:0001:0002:0:0:0:ffff', '2001:DB8:1:2:a:b:c:d', '[2001:db8:1:2::9]', 'fe80::1%eth0'.replace('fe80::1', '2001:db8:1:2::1')].map(viaHeader))
    expect([...keys]).toEqual(['2001:db8:1:2::/64'])
  })

  test('a repeated header (joined with commas) counts only its first value', () => {
    const joined = new Request('http://localhost/', { headers: [['cf-connecting-ip', '203.0.113.5'], ['cf-connecting-ip', '192.0.2.99']] })
    expect(joined.headers.get('cf-connecting-ip')).toContain(',')
    expect(clientAddress(joined, 'cf-connecting-ip', peer)).toBe('203.0.113.5')
    expect(viaHeader('203.0.113.5, 192.0.2.1')).toBe('203.0.113.5')
    expect(viaHeader('203.0.113.5,192.0.2.2')).toBe('203.0.113.5')
  })
})

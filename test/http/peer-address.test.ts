// The client address over a real socket: by default the TCP peer, so a client cannot pick a
// fresh rate-limit bucket by sending its own cf-connecting-ip; with the header configured (a
// deployment behind Cloudflare) the header is the address.
import { afterAll, describe, expect, test } from 'bun:test'
import { loadConfig } from '../../src/config'
import { makeTestApp } from '../helpers/app'

const servers: { stop(): void }[] = []
afterAll(() => servers.forEach((server) => server.stop()))

function listening(env: Record<string, string>) {
  const harness = makeTestApp({ env })
  const app = harness.app.listen({ port: 0, hostname: '127.0.0.1' })
  servers.push({ stop: () => void app.stop() })
  return { ...harness, base: `http://127.0.0.1:${app.server!.port}` }
}

const sample = (base: string, spoof: string) => fetch(`${base}/v1/safe-to-trade/sample?venue=XNYS&max_age=30`, { headers: { 'cf-connecting-ip': spoof } })

describe('client address source', () => {
  test('default: a spoofed cf-connecting-ip does not get a fresh bucket', async () => {
    expect(loadConfig({}).clientIpHeader).toBeNull()
    const { base, config } = listening({ CLIENT_IP_HEADER: '' })
    expect(config.clientIpHeader).toBe(loadConfig({}).clientIpHeader)
    for (let i = 0; i < 60; i++) expect((await sample(base, `203.0.113.${i}`)).status).toBe(200)
    // The 61st request from this socket's peer is limited whatever header it sends.
    expect((await sample(base, '198.51.100.200')).status).toBe(429)
  })

  test('CLIENT_IP_HEADER=cf-connecting-ip: the header is the address (behind Cloudflare)', async () => {
    const { base } = listening({ CLIENT_IP_HEADER: 'cf-connecting-ip' })
    for (let i = 0; i < 61; i++) expect((await sample(base, `203.0.113.${i}`)).status).toBe(200)
    for (let i = 0; i < 60; i++) await sample(base, '198.51.100.1')
    expect((await sample(base, '198.51.100.1')).status).toBe(429)
  })
})

// A real HTTPS webhook receiver on loopback with a certificate made for the test (openssl), and
// receiver-side verification with the `standardwebhooks` package.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'

export interface TestCertificate {
  cert: string
  key: string
  /** Path of the certificate file, for NODE_EXTRA_CA_CERTS in a child process. */
  certFile: string
  dispose(): void
}

/** A self-signed certificate (its own CA), by default for localhost, 127.0.0.1 and ::1. */
export function makeCertificate(altNames = 'DNS:localhost,IP:127.0.0.1,IP:::1'): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'openbell-cert-'))
  const result = Bun.spawnSync([
    'openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2', '-subj', '/CN=localhost',
    '-addext', `subjectAltName=${altNames}`,
  ], { stderr: 'pipe' })
  if (result.exitCode !== 0) throw new Error(`openssl failed: ${result.stderr.toString()}`)
  return { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8'), certFile: join(dir, 'cert.pem'), dispose: () => rmSync(dir, { recursive: true, force: true }) }
}

export interface ReceivedDelivery {
  headers: Record<string, string>
  body: string
  json: Record<string, any>
  at: number
}

/** An HTTPS receiver on a loopback address (IPv4 or IPv6); `respond` decides each answer's status (default 200). */
export function startReceiver(certificate: TestCertificate, port = 0, hostname = '127.0.0.1') {
  const received: ReceivedDelivery[] = []
  let respond: (delivery: ReceivedDelivery) => number | Promise<number> = () => 200
  const server = Bun.serve({
    port,
    hostname,
    tls: { cert: certificate.cert, key: certificate.key },
    async fetch(request) {
      const body = await request.text()
      const delivery: ReceivedDelivery = { headers: Object.fromEntries(request.headers), body, json: JSON.parse(body || 'null'), at: Date.now() }
      received.push(delivery)
      return new Response('', { status: await respond(delivery) })
    },
  })
  return {
    received,
    port: server.port,
    url: (path = '/hook', host = hostname.includes(':') ? `[${hostname}]` : hostname) => `https://${host}:${server.port}${path}`,
    respondWith(fn: typeof respond) {
      respond = fn
    },
    stop: () => server.stop(true),
  }
}

/**
 * Verifies a delivery as a receiver would; throws when the signature is wrong or the timestamp is
 * more than 5 minutes from the receiver's clock. `receiverNow` is that clock: tests whose service
 * clock is set to another day give the receiver the same clock (the library reads Date.now()).
 */
export function verifyDelivery(secret: string, delivery: ReceivedDelivery, receiverNow: number = Date.now()): unknown {
  const realNow = Date.now
  Date.now = () => receiverNow
  try {
    return new Webhook(secret).verify(delivery.body, { 'webhook-id': delivery.headers['webhook-id']!, 'webhook-timestamp': delivery.headers['webhook-timestamp']!, 'webhook-signature': delivery.headers['webhook-signature']! })
  } finally {
    Date.now = realNow
  }
}

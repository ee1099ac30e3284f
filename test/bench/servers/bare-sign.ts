// A bare Elysia route that only signs a fixed 11-field receipt with the native key: the cost of
// signing itself, against which the whole /v5/status path is compared.
import { Elysia } from 'elysia'
import { randomBytes } from 'node:crypto'
import { Signer } from '../../../src/crypto/signer'

const signer = Signer.fromSeed(new Uint8Array(randomBytes(32)), 'key_bench_v1', '2026-01-01T00:00:00.000Z', null)
const fields = {
  expires_at: '2026-03-10T15:01:00.000Z',
  halt_detection: 'active',
  issued_at: '2026-03-10T15:00:00.000Z',
  issuer: 'bench.local',
  mic: 'XNYS',
  public_key_id: 'key_bench_v1',
  receipt_id: '00000000-0000-4000-8000-000000000000',
  receipt_mode: 'live',
  schema_version: 'v5.0',
  source: 'SCHEDULE',
  status: 'OPEN',
}
const app = new Elysia().get('/sign', () => signer.signFields(fields)).listen({ port: Number(process.argv[2] ?? 0), hostname: '127.0.0.1' })
console.log(`READY ${app.server!.port}`)

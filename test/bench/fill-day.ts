// One day of live receipts written straight into an audit store, as the log writes them: ~420-byte
// bodies, the first 28 venues in turn, issued across the day. For the benches that need a big
// log without serving it (growth, seal).
import { randomUUID } from 'node:crypto'
import type { AuditRow, AuditStore } from '../../src/audit/store'
import { SUPPORTED_MICS } from '../../src/calendar/mics'

const MICS = SUPPORTED_MICS.slice(0, 28)
const SIGNATURE = 'ab'.repeat(64)

/** Writes `receipts` rows of the day starting at `dayStart` in batches of 10,000; returns `samples` ids spread over the day. */
export async function fillDay(store: AuditStore, options: { dayStart: number; receipts: number; keyHash: string; samples: number }): Promise<string[]> {
  const { dayStart, receipts, keyHash, samples } = options
  const day = new Date(dayStart).toISOString().slice(0, 10)
  const every = Math.ceil(receipts / samples)
  const sample: string[] = []
  for (let done = 0; done < receipts; ) {
    const batch: AuditRow[] = []
    for (let i = 0; i < 10_000 && done < receipts; i++, done++) {
      const issued = new Date(dayStart + Math.floor((done * 86_399_000) / receipts)).toISOString()
      const id = randomUUID()
      const mic = MICS[done % MICS.length]!
      if (done % every === 7 % every) sample.push(id)
      const receipt_json = `{"expires_at":"${issued}","halt_detection":"active","issued_at":"${issued}","issuer":"bench.local","mic":"${mic}","public_key_id":"key_bench_v1","receipt_id":"${id}","receipt_mode":"live","schema_version":"v5.0","source":"SCHEDULE","status":"OPEN","signature":"${SIGNATURE}"}`
      batch.push({ receipt_id: id, day, mic, status: 'OPEN', source: 'SCHEDULE', issued_at: issued, schema_version: 'v5.0', surface: '/v5/status', key_hash: keyHash, payment_ref: null, client_ref: null, receipt_json })
    }
    await store.insertBatch(batch)
  }
  return sample
}

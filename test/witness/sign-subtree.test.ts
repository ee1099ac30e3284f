// POST /sign-subtree (C2SP tlog-witness): an ML-DSA-44 subtree cosignature (timestamp 0) for a
// subtree of a checkpoint this witness cosigned, given a subtree consistency proof; the spec's
// 400, 403, 404 and 422 for everything else. The subtree proofs come from the draft's recursive
// definition (packages/verify/test/cases.ts), over this service's own log.
import { describe, expect, test } from 'bun:test'
import { leafHash, mlDsa44Verify, parseNote, parseVkey, subtreeMessage, toBase64, utf8 } from '@openbell/verify'
import { mth, subtreeProof } from '../../packages/verify/test/cases'
import { issueKey } from '../../src/accounts/keys'
import { makeTestApp } from '../helpers/app'

async function setup() {
  const harness = makeTestApp({ now: '2026-03-10T15:00:00.000Z' })
  const { key } = await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })
  await harness.deps.auditTrail.sealer.startedOn()
  for (let i = 0; i < 13; i++) await harness.request('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })
  await harness.deps.transparency.integrator.tick()
  const checkpoint = await (await harness.request('/log/checkpoint')).text()
  const leaves = (await harness.deps.audit.store.entries(1, 100)).map((row) => leafHash(utf8(row.receipt_json!)))
  const keys = (await harness.json('/v5/keys')).body
  const request = (start: number, end: number, reference = checkpoint, proof = subtreeProof(start, end, leaves), hash = mth(leaves.slice(start, end))) =>
    harness.request('/sign-subtree', { method: 'POST', body: `subtree ${start} ${end}\n${toBase64(hash)}\n${proof.map((h) => `${toBase64(h)}\n`).join('')}\n${reference}` })
  return { harness, checkpoint, leaves, keys, request }
}

describe('POST /sign-subtree', () => {
  test('a subtree of a cosigned checkpoint: one ML-DSA-44 line, timestamp 0, over [start, end) and its hash', async () => {
    const { checkpoint, leaves, keys, request } = await setup()
    expect(checkpoint.split('\n')[1]).toBe('13')
    const key = parseVkey(keys.witness_ml_dsa_key.vkey)!
    for (const [start, end] of [[8, 13], [4, 8], [0, 13], [12, 13], [0, 5]] as const) {
      const response = await request(start, end)
      expect([start, end, response.status]).toEqual([start, end, 200])
      const text = await response.text()
      const note = parseNote(`x\n\n${text}`)!
      expect(note.signatures.map((line) => [line.name, line.keyId])).toEqual([[key.name, key.keyId]])
      const signature = note.signatures[0]!.signature
      expect(Array.from(signature.subarray(0, 8))).toEqual([0, 0, 0, 0, 0, 0, 0, 0])
      expect(mlDsa44Verify(key.publicKey, subtreeMessage(key.name, 0, 'oracle.test/log', start, end, mth(leaves.slice(start, end)))!, signature.subarray(8))).toBe(true)
    }
  }, 30_000)

  test('422 for a proof that does not verify; 400 for what is not a subtree of the checkpoint or not the format', async () => {
    const { harness, leaves, request } = await setup()
    const proof = subtreeProof(4, 8, leaves)
    expect(proof.length).toBe(2)
    proof[1] = Uint8Array.from(proof[1]!, (byte, i) => (i === 0 ? byte ^ 1 : byte))
    expect((await request(4, 8, undefined, proof)).status).toBe(422)
    expect((await request(8, 13, undefined, undefined, mth(leaves.slice(8, 12)))).status).toBe(422)
    expect((await request(2, 6, undefined, [])).status).toBe(400)
    expect((await request(8, 14, undefined, [])).status).toBe(400)
    for (const body of ['', 'subtree 8\n', 'subtree 08 13\nAAAA\n\n', `subtree 8 13\n${toBase64(new Uint8Array(31))}\n\n`]) expect((await harness.request('/sign-subtree', { method: 'POST', body })).status).toBe(400)
  }, 30_000)

  test('404 for a log this witness does not follow; 403 without a valid cosignature of this witness, or when its head has not reached that size', async () => {
    const { harness, checkpoint, request } = await setup()
    const [text, signatures] = checkpoint.split('\n\n') as [string, string]
    const lines = signatures.trim().split('\n')
    expect((await request(8, 13, `other.example/log${text.slice(text.indexOf('\n'))}\n\n${lines.join('\n')}\n`)).status).toBe(404)
    const logOnly = `${text}\n\n${lines.filter((line) => line.startsWith('\u2014 oracle.test/log ')).join('\n')}\n`
    expect((await request(8, 13, logOnly)).status).toBe(403)
    const bent = lines.map((line) => (line.startsWith('\u2014 oracle.test/witness ') ? line.replace(/ (\S)(\S+)$/, (_, first: string, rest: string) => ` ${first}${rest.slice(0, 20)}${rest[20] === 'A' ? 'B' : 'A'}${rest.slice(21)}`) : line))
    expect((await request(8, 13, `${text}\n\n${bent.join('\n')}\n`)).status).toBe(403)
    // A witness restored from an older backup holds size 5: it does not sign within 13.
    harness.db.run("UPDATE witness_log_heads SET size = 5 WHERE origin = 'oracle.test/log'")
    expect((await request(8, 13)).status).toBe(403)
  }, 30_000)
})

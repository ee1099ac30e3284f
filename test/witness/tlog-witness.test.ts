// The C2SP tlog-witness endpoint over the app, with transparency-dev/witness's own test log
// ("monkeys": checkpoints of sizes 5 and 8 and the consistency proof between them): the log
// list format (witness-network vectors), add-checkpoint's answers (200 cosignature, 409 with the
// size as text/x.tlog.size, 403, 404, 422, 400), a forked checkpoint refused, the admin API and
// the monitoring GET.
import { checkSignature, parseNote as verifierNote, parseVkey as verifierVkey } from '@openbell/verify'
import { describe, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createHash } from 'node:crypto'
import { parseLogList } from '../../src/witness/tlog/log-list'
import { parseNote, parseVkey, base64 } from '../../src/transparency/note'
import { cosignerKey, verifyCosignature } from '../../src/transparency/cosignature'
import { checkpointText } from '../../src/transparency/checkpoint'
import { makeTestApp, tempDir, TEST_ADMIN_KEY } from '../helpers/app'
import { noteSignerOf } from '../helpers/note-keys'

const FIXTURES = join(import.meta.dir, '../fixtures/transparency')
const vectors = JSON.parse(readFileSync(join(FIXTURES, 'note-vectors.json'), 'utf8')).witness
const listCases = JSON.parse(readFileSync(join(FIXTURES, 'log-list-vectors.json'), 'utf8')).cases

describe('the witness-network log-list format', () => {
  test("transparency-dev/witness's parser cases", () => {
    for (const c of listCases) {
      const parsed = parseLogList(c.config)
      expect({ name: c.name, ok: parsed.ok }).toEqual({ name: c.name, ok: !c.wantErr })
      if (parsed.ok) expect(parsed.logs.map(({ vkey, origin, qpd, contact }) => ({ vkey, origin, qpd, ...(contact ? { contact } : {}) }))).toEqual(c.want)
    }
  })
  test('the published testing list of witness-network parses whole', () => {
    const parsed = parseLogList(readFileSync(join(FIXTURES, 'witness-network-log-list.1'), 'utf8'))
    expect(parsed.ok).toBe(true)
    if (parsed.ok) {
      expect(parsed.logs.length).toBeGreaterThanOrEqual(8)
      expect(parsed.logs[0]!.origin).toBe('arche2025h1.staging.ct.transparency.dev')
    }
  })
  test('a bastion line is taken between origin and qpd; a log without qpd is refused', () => {
    const ok = parseLogList('logs/v0\nvkey monkeys+db4d9f7e+AULaJMvTtDLHPUcUrjdDad9vDlh/PTfC2VV60JUtCfWT\norigin monkeys\nbastion bastion.example.com\nqpd 86400\ncontact ops\n')
    expect(ok.ok && ok.logs[0]!.bastion).toBe('bastion.example.com')
    expect(parseLogList('logs/v0\nvkey monkeys+db4d9f7e+AULaJMvTtDLHPUcUrjdDad9vDlh/PTfC2VV60JUtCfWT\n').ok).toBe(false)
  })
})

const add = (body: string) => ({ method: 'POST', body, headers: { 'content-type': 'text/plain' } })
const request = (old: number, proof: string[], checkpoint: string) => `old ${old}\n${proof.map((p) => `${p}\n`).join('')}\n${checkpoint}`
const proof58 = (vectors.consistency_5_8_hex as string[]).map((hex) => Buffer.from(hex, 'hex').toString('base64'))

function witnessApp() {
  const dir = tempDir()
  const file = join(dir, 'logs.txt')
  writeFileSync(file, `logs/v0\n# the monkeys log of transparency-dev/witness's tests\nvkey ${vectors.log_vkey}\nqpd 86400\ncontact tests\n`)
  return makeTestApp({ env: { WITNESS_LOGS_FILE: file } })
}

describe('POST /add-checkpoint', () => {
  test('the monkeys log: 0 → 5 → 8 with its published proof; each answer is a valid cosignature/v1 line', async () => {
    const harness = witnessApp()
    const witnessKey = cosignerKey(parseVkey((await harness.json('/v5/keys')).body.witness_cosigning_key.vkey)!)
    const first = await harness.request('/add-checkpoint', add(request(0, [], vectors.checkpoint_5)))
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const lines = await first.text()
    // Two cosignature lines: Ed25519 (cosignature/v1), then ML-DSA-44 (subtree/v1), same time.
    expect(lines).toMatch(/^\u2014 oracle\.test\/witness [A-Za-z0-9+/=]+\n\u2014 oracle\.test\/witness [A-Za-z0-9+/=]+\n$/)
    expect(verifyCosignature(parseNote(vectors.checkpoint_5 + lines)!, witnessKey)).toBe(Math.floor(harness.clock.now() / 1000))
    const mlDsaKey = verifierVkey((await harness.json('/v5/keys')).body.witness_ml_dsa_key.vkey)!
    expect(checkSignature(verifierNote(vectors.checkpoint_5 + lines)!, mlDsaKey)).toEqual({ verdict: 'valid', timestamp: Math.floor(harness.clock.now() / 1000) })
    // Old size 0 again: 409 with the size this witness holds.
    const stale = await harness.request('/add-checkpoint', add(request(0, [], vectors.checkpoint_8)))
    expect(stale.status).toBe(409)
    expect(stale.headers.get('content-type')).toBe('text/x.tlog.size')
    expect(await stale.text()).toBe('5\n')
    // A bad proof (one hash changed) is 422 and changes nothing.
    const bent = [...proof58]
    bent[1] = Buffer.from(Buffer.from(bent[1]!, 'base64').map((b, i) => (i === 0 ? b ^ 1 : b))).toString('base64')
    expect((await harness.request('/add-checkpoint', add(request(5, bent, vectors.checkpoint_8)))).status).toBe(422)
    const next = await harness.request('/add-checkpoint', add(request(5, proof58, vectors.checkpoint_8)))
    expect(next.status).toBe(200)
    expect(verifyCosignature(parseNote(vectors.checkpoint_8 + (await next.text()))!, witnessKey)).not.toBeNull()
    // The monitoring view: the checkpoint, the log's signature, the cosignature.
    const origin = createHash('sha256').update('monkeys').digest('hex')
    const monitored = await harness.request(`/witness/${origin}/checkpoint`)
    const note = parseNote(await monitored.text())!
    expect(note.text).toBe(parseNote(vectors.checkpoint_8)!.text)
    expect(note.signatures.map((s) => s.name)).toEqual(['monkeys', 'oracle.test/witness', 'oracle.test/witness'])
    expect((await harness.request(`/witness/${'0'.repeat(64)}/checkpoint`)).status).toBe(404)
    // The admin API lists the file's log beside this service's own, with the size it holds now.
    const listed = await harness.json('/v5/admin/witness/logs', { headers: { 'x-oracle-key': TEST_ADMIN_KEY } })
    expect(listed.body.logs.map((l: any) => [l.origin, l.source, l.witnessed_size])).toEqual([['monkeys', 'file', 8], ['oracle.test/log', 'self', null]])
  })

  test('a fork: a checkpoint inconsistent with the witnessed one is refused, also at the same size', async () => {
    const harness = witnessApp()
    const log = noteSignerOf(vectors.log_skey)
    expect((await harness.request('/add-checkpoint', add(request(0, [], vectors.checkpoint_5)))).status).toBe(200)
    // The log (its key) signs another tree of size 8 and of size 5: the witness cosigned 5 with another root.
    const forked8 = log.sign(checkpointText('monkeys', 8, new Uint8Array(32).fill(9)))
    expect((await harness.request('/add-checkpoint', add(request(5, proof58, forked8)))).status).toBe(422)
    const forked5 = log.sign(checkpointText('monkeys', 5, new Uint8Array(32).fill(9)))
    expect((await harness.request('/add-checkpoint', add(request(5, [], forked5)))).status).toBe(422)
    // The honest checkpoint still goes on.
    expect((await harness.request('/add-checkpoint', add(request(5, proof58, vectors.checkpoint_8)))).status).toBe(200)
  })

  test('403 for a missing or failing log signature, 404 for an unknown log, 400 and 422 for bad requests', async () => {
    const harness = witnessApp()
    const status = async (body: string) => (await harness.request('/add-checkpoint', add(body))).status
    const text = parseNote(vectors.checkpoint_5)!.text
    // Signed by another key under the same name: no trusted signature.
    const impostor = noteSignerOf(vectors.witness_skey)
    expect(await status(request(0, [], `${text}\n${impostor.signatureLine(text).replace('witness', 'monkeys')}`))).toBe(403)
    // The log's signature line with a damaged signature: 403.
    const line = vectors.checkpoint_5.slice(text.length + 1)
    const damaged = `${line.slice(0, 40)}${line[40] === 'A' ? 'B' : 'A'}${line.slice(41)}`
    expect(await status(request(0, [], `${text}\n${damaged}`))).toBe(403)
    expect(await status(request(0, [], vectors.checkpoint_5.replace(/^monkeys\n/, 'bananas\n')))).toBe(404)
    expect(await status(request(6, [], vectors.checkpoint_5))).toBe(400) // old size above the checkpoint
    expect(await status(request(0, [proof58[0]!], vectors.checkpoint_5))).toBe(422) // proof from 0
    expect(await status(`old 00\n\n${vectors.checkpoint_5}`)).toBe(400)
    expect(await status(`old 0\n${vectors.checkpoint_5}`)).toBe(400)
    expect(await status(request(0, Array(64).fill(proof58[0]), vectors.checkpoint_5))).toBe(400)
    const log = noteSignerOf(vectors.log_skey)
    expect(await status(request(0, [], log.sign(checkpointText('monkeys', 0, new Uint8Array(32)))))).toBe(422) // size 0, not the empty root
    const errorBody = (await (await harness.request('/add-checkpoint', add('nonsense'))).json()) as { error: string }
    expect(errorBody.error).toBe('bad_request')
    // Nothing was stored by any of these.
    expect((await harness.request(`/witness/${createHash('sha256').update('monkeys').digest('hex')}/checkpoint`)).status).toBe(404)
  })

  test("the log's signature line repeated 100 times: cosigned, and kept once; a different line of the log's key beside a valid one is 403", async () => {
    const harness = witnessApp()
    const text = parseNote(vectors.checkpoint_5)!.text
    const line = vectors.checkpoint_5.slice(text.length + 1)
    const copies = `${text}\n${line.repeat(100)}`
    const answer = await harness.request('/add-checkpoint', add(request(0, [], copies)))
    expect(answer.status).toBe(200)
    const origin = createHash('sha256').update('monkeys').digest('hex')
    const stored = parseNote(await (await harness.request(`/witness/${origin}/checkpoint`)).text())!
    // The log's line once; the witness's two cosignatures (Ed25519 and ML-DSA-44, issue 36).
    expect(stored.signatures.map((signature) => signature.name)).toEqual(['monkeys', 'oracle.test/witness', 'oracle.test/witness'])
    expect(stored.signatures[0]!.line).toBe(line)
    // Every distinct line of a trusted key is verified: a bent copy after the valid one fails the note.
    const bent = `${line.slice(0, 40)}${line[40] === 'A' ? 'B' : 'A'}${line.slice(41)}`
    expect((await harness.request('/add-checkpoint', add(request(5, proof58, `${parseNote(vectors.checkpoint_8)!.text}\n${vectors.checkpoint_8.slice(parseNote(vectors.checkpoint_8)!.text.length + 1)}${bent}`)))).status).toBe(403)
    // 101 signature lines are more than a note may carry (Go's note.Open refuses them too): 400.
    expect((await harness.request('/add-checkpoint', add(request(5, proof58, `${parseNote(vectors.checkpoint_8)!.text}\n${vectors.checkpoint_8.slice(parseNote(vectors.checkpoint_8)!.text.length + 1).repeat(101)}`)))).status).toBe(400)
  })

  test('two requests from the same old size at once: one advances, the other gets 409', async () => {
    const harness = witnessApp()
    await harness.request('/add-checkpoint', add(request(0, [], vectors.checkpoint_5)))
    const answers = await Promise.all([harness.request('/add-checkpoint', add(request(5, proof58, vectors.checkpoint_8))), harness.request('/add-checkpoint', add(request(5, proof58, vectors.checkpoint_8)))])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
  })
})

describe('/v5/admin/witness/logs', () => {
  test('adds a log that add-checkpoint then accepts; lists file, admin and own logs; refuses bad input', async () => {
    const harness = makeTestApp()
    const admin = { 'x-oracle-key': TEST_ADMIN_KEY, 'content-type': 'application/json' }
    expect((await harness.request('/add-checkpoint', add(request(0, [], vectors.checkpoint_5)))).status).toBe(404)
    expect((await harness.json('/v5/admin/witness/logs', { method: 'POST', body: JSON.stringify({ vkey: vectors.log_vkey }) })).status).toBe(401)
    const added = await harness.json('/v5/admin/witness/logs', { method: 'POST', headers: admin, body: JSON.stringify({ origin: 'monkeys', vkey: vectors.log_vkey }) })
    expect(added.status).toBe(201)
    expect(added.body).toMatchObject({ origin: 'monkeys', vkey: vectors.log_vkey, key_id: 'db4d9f7e', source: 'admin', witnessed_size: null })
    expect((await harness.json('/v5/admin/witness/logs', { method: 'POST', headers: admin, body: JSON.stringify({ origin: 'monkeys', vkey: vectors.log_vkey }) })).status).toBe(200)
    expect((await harness.request('/add-checkpoint', add(request(0, [], vectors.checkpoint_5)))).status).toBe(200)
    const list = await harness.json('/v5/admin/witness/logs', { headers: admin })
    expect(list.body.logs.map((l: any) => [l.origin, l.source, l.witnessed_size])).toEqual([['oracle.test/log', 'self', null], ['monkeys', 'admin', 5]])
    for (const body of ['{', JSON.stringify({ vkey: 'monkeys+00000000+AULa' }), JSON.stringify({ vkey: vectors.log_vkey, origin: 'two words' }), JSON.stringify({ vkey: vectors.log_vkey, extra: 1 }), JSON.stringify([1])]) {
      const refused = await harness.json('/v5/admin/witness/logs', { method: 'POST', headers: admin, body })
      expect({ body, status: refused.status, error: refused.body.error }).toEqual({ body, status: 400, error: 'INVALID_WITNESSED_LOG' })
    }
    expect((await harness.json('/v5/admin/witness/logs', { headers: admin })).body.count).toBe(2)
  })

  test('a bad WITNESS_LOGS_FILE stops the start naming the file and line', () => {
    const dir = tempDir()
    const file = join(dir, 'logs.txt')
    writeFileSync(file, 'logs/v0\nqpd 5\n')
    expect(() => makeTestApp({ env: { WITNESS_LOGS_FILE: file } })).toThrow(/WITNESS_LOGS_FILE: .*logs\.txt line 2/)
  })
})

test('vkeys of the witness vectors: 0x01 form as published, cosignature key id from type 0x04', () => {
  const key = parseVkey(vectors.witness_vkey)!
  expect(cosignerKey(key).keyId).not.toBe(key.keyId)
  expect(base64(key.publicKey).length).toBe(44)
})

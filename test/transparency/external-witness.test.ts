// Other witnesses an operator lists (LOG_WITNESS_POLICY_FILE, C2SP tlog-policy lines) cosign this
// log's checkpoints over HTTP: here a second openbell instance, served on loopback, witnesses the
// first. Its cosignature appears in /log/checkpoint and verifies with its published key; a
// publisher that forgot the witness's size learns it from the 409 and goes on; a witness that is
// down or answers nonsense costs only its own line.
import { afterAll, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { issueKey } from '../../src/accounts/keys'
import { Signer } from '../../src/crypto/signer'
import { parseNote, parseVkey } from '../../src/transparency/note'
import { cosignerKey, verifyCosignature } from '../../src/transparency/cosignature'
import { transparencyServices } from '../../src/wiring/transparency'
import { parseWitnessPolicy } from '../../src/transparency/witness-policy'
import { makeTestApp, tempDir, TEST_ADMIN_KEY } from '../helpers/app'

const servers: ReturnType<typeof Bun.serve>[] = []
afterAll(() => {
  for (const server of servers) server.stop(true)
})

test('a second instance witnesses this log; its cosignature is served and verifies', async () => {
  const witness = makeTestApp({ env: { ISSUER: 'witness-b.test' }, signer: Signer.fromSeed(new Uint8Array(32).fill(7), 'key_b', '2026-01-01T00:00:00.000Z', null) })
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => witness.app.handle(request) })
  servers.push(server)
  const witnessKeys = (await witness.json('/v5/keys')).body.witness_cosigning_key
  const policy = join(tempDir(), 'policy.txt')
  writeFileSync(policy, `# who cosigns this log\nlog oracle.test/log+00000000+AAAA\nwitness B ${witnessKeys.cosignature_vkey} http://127.0.0.1:${server.port}\nwitness Down witness+f13a86db+AdYV1Ztajd9BvyjP2HgpwrqYL6TjOwIjGMOq8Bu42xbN http://127.0.0.1:9\nquorum B\n`)
  const log = makeTestApp({ env: { LOG_WITNESS_POLICY_FILE: policy, LOG_WITNESS_TIMEOUT_MS: '1500' } })
  const { key } = await issueKey(log.deps.accounts, { plan: 'pro', now: new Date(log.clock.now()) })
  // The witness follows the log once its operator adds it.
  const logVkey = (await log.json('/v5/keys')).body.log_note_key.vkey
  expect((await witness.json('/v5/admin/witness/logs', { method: 'POST', headers: { 'x-oracle-key': TEST_ADMIN_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ vkey: logVkey }) })).status).toBe(201)

  const checkpointNote = async () => parseNote(await (await log.request('/log/checkpoint')).text())!
  const bKey = cosignerKey(parseVkey(witnessKeys.cosignature_vkey)!)
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 5; i++) expect((await log.request('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })).status).toBe(200)
    await log.deps.audit.flush()
    await log.deps.transparency.integrator.tick()
    const note = await checkpointNote()
    expect(note.text).toStartWith(`oracle.test/log\n${5 * (round + 1)}\n`)
    // The log's Ed25519 and ML-DSA-44 signatures, the own witness's two cosignatures, then witness B's (its listed Ed25519 key).
    expect(note.signatures.map((s) => s.name)).toEqual(['oracle.test/log', 'oracle.test/log', 'oracle.test/witness', 'oracle.test/witness', 'witness-b.test/witness'])
    expect(verifyCosignature(note, bKey)).toBe(Math.floor(witness.clock.now() / 1000))
  }
  expect(log.log.lines.some((line) => line.msg === 'witness did not answer in time' && line.witness === 'Down')).toBe(true)

  // A publisher that does not know what B has seen (a restarted node) starts from 0, is told 15, and goes on.
  for (let i = 0; i < 2; i++) await log.request('/v5/status?mic=XLON', { headers: { 'x-oracle-key': key } })
  await log.deps.audit.flush()
  const restarted = transparencyServices({ config: log.config, clock: log.clock, log: log.log, signer: log.deps.signer, transactor: log.deps.transactor, audit: log.deps.audit.store, tiles: log.deps.transparency.tiles, tlogWitness: log.deps.tlogWitness.store })
  await restarted.transparency.integrator.tick()
  await Bun.sleep(600) // the serving node reads the stored checkpoint at most every 500 ms
  const after = await checkpointNote()
  expect(after.text).toStartWith('oracle.test/log\n17\n')
  expect(verifyCosignature(after, bKey)).not.toBeNull()
  const listed = (await witness.json('/v5/admin/witness/logs', { headers: { 'x-oracle-key': TEST_ADMIN_KEY } })).body.logs
  expect(listed.find((entry: { origin: string }) => entry.origin === 'oracle.test/log').witnessed_size).toBe(17)
}, 30_000)

test('the policy file: witness lines need a vkey and a URL; log, group and quorum lines are accepted', () => {
  const vkey = 'witness+f13a86db+AdYV1Ztajd9BvyjP2HgpwrqYL6TjOwIjGMOq8Bu42xbN'
  expect(parseWitnessPolicy(`log x+1+2\nwitness W ${vkey} https://w.example/\ngroup G any W\nquorum G\n`).map((w) => [w.label, w.url])).toEqual([['W', 'https://w.example']])
  expect(() => parseWitnessPolicy(`witness W ${vkey}\n`)).toThrow(/line 1: .*URL/)
  expect(() => parseWitnessPolicy('witness W nonsense https://w.example\n')).toThrow(/line 1/)
  expect(() => parseWitnessPolicy(`witness W ${vkey} https://a\nwitness W ${vkey} https://b\n`)).toThrow(/used twice/)
})

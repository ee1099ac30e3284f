// GET /log/proof/receipt/{id}, GET /log/policy, and /v5/verify and verify_receipt with a proof.
import { describe, expect, test } from 'bun:test'
import { parsePolicy, parseTlogProof, verifyReceiptProof, fromUtf8 } from '@openbell/verify'
import { issueKey } from '../../src/accounts/keys'
import { makeTestApp } from '../helpers/app'

const OPEN = '2026-03-10T15:00:00.000Z'

async function setup(env: Record<string, string> = {}) {
  const harness = makeTestApp({ now: OPEN, env })
  const { key } = await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })
  await harness.deps.auditTrail.sealer.startedOn()
  const status = async () => (await harness.request('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })).text()
  return { harness, status }
}

describe('GET /log/proof/receipt/{id}', () => {
  test('404 with Retry-After before a checkpoint covers the receipt; then the tlog-proof, which verifies under /log/policy', async () => {
    const { harness, status } = await setup()
    const texts = [await status(), await status(), await status()]
    const id = JSON.parse(texts[1]!).receipt_id
    const early = await harness.request(`/log/proof/receipt/${id}`)
    expect(early.status).toBe(404)
    expect(early.headers.get('retry-after')).toBe('2')
    expect(await early.json()).toMatchObject({ error: 'RECEIPT_NOT_INTEGRATED', leaf_index: 1 })
    await harness.deps.transparency.integrator.tick()
    const response = await harness.request(`/log/proof/receipt/${id}`, { headers: { origin: 'https://auditor.example' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    // Readable from any page, like the rest of the log.
    expect(response.headers.get('access-control-allow-origin')).toBe('https://auditor.example')
    const proof = await response.text()
    const parsed = parseTlogProof(proof)
    expect(parsed.ok && [parsed.proof.index, parsed.proof.path.length, fromUtf8(parsed.proof.extra!)]).toEqual([1, 2, id])
    // The newest checkpoint, verbatim, with every signature the service holds.
    expect(proof.endsWith(await (await harness.request('/log/checkpoint')).text())).toBe(true)
    const policy = await (await harness.request('/log/policy')).text()
    expect(verifyReceiptProof(texts[1], proof, policy).valid).toBe(true)
    expect(verifyReceiptProof(texts[0], proof, policy).reason).toBe('extra_mismatch')
  })

  test('400 for a malformed id; 404 RECEIPT_NOT_FOUND for an unknown or a demo receipt, without Retry-After', async () => {
    const { harness } = await setup()
    expect((await harness.json('/log/proof/receipt/not-a-uuid')).body.error).toBe('INVALID_RECEIPT_ID')
    const demo = (await harness.json('/v5/demo')).body
    await harness.deps.transparency.integrator.tick()
    for (const id of ['00000000-0000-4000-8000-000000000000', demo.receipt_id]) {
      const response = await harness.request(`/log/proof/receipt/${id}`)
      expect([response.status, response.headers.get('retry-after'), ((await response.json()) as { error: string }).error]).toEqual([404, null, 'RECEIPT_NOT_FOUND'])
    }
  })
})

describe('GET /log/policy', () => {
  test("the log's two keys, the own witness's two keys as one group, the quorum (default: the own witness)", async () => {
    const { harness } = await setup()
    const response = await harness.request('/log/policy')
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const text = await response.text()
    const parsed = parsePolicy(text)
    if (!parsed.ok) throw new Error(parsed.message)
    const keys = (await harness.json('/v5/keys')).body
    expect(parsed.policy.logs.map((key) => key.text)).toEqual([keys.log_note_key.vkey, keys.log_ml_dsa_key.vkey])
    expect([...parsed.policy.witnesses.values()].map((key) => key.text)).toEqual([keys.witness_cosigning_key.cosignature_vkey, keys.witness_ml_dsa_key.vkey])
    expect(parsed.policy.quorum).toBe('oracle.test/witness')
    expect(parsed.policy.groups.get('oracle.test/witness')).toEqual({ name: 'oracle.test/witness', threshold: 1, members: ['oracle.test/witness#ed25519', 'oracle.test/witness#ml-dsa-44'] })
  })

  test('LOG_POLICY_QUORUM: none, all; more witnesses than there are stops the start', async () => {
    for (const [quorum, want] of [['none', 'none'], ['all', 'oracle.test/witness#quorum']] as const) {
      const parsed = parsePolicy(await (await (await setup({ LOG_POLICY_QUORUM: quorum })).harness.request('/log/policy')).text())
      expect(parsed.ok && parsed.policy.quorum).toBe(want)
    }
    expect(() => makeTestApp({ env: { LOG_POLICY_QUORUM: '2' } })).toThrow(/LOG_POLICY_QUORUM=2 asks for 2 witnesses, but there are only 1/)
    expect(() => makeTestApp({ env: { LOG_POLICY_QUORUM: 'most' } })).toThrow(/LOG_POLICY_QUORUM/)
  })
})

describe('/v5/verify and verify_receipt with a proof', () => {
  test('both verdicts: the signature and the proof; an altered proof names its reason', async () => {
    const { harness, status } = await setup()
    const text = await status()
    await status()
    await harness.deps.transparency.integrator.tick()
    const receipt = JSON.parse(text)
    const proof = await (await harness.request(`/log/proof/receipt/${receipt.receipt_id}`)).text()
    const post = (body: unknown) => harness.json('/v5/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const good = await post({ receipt, proof })
    expect(good.status).toBe(200)
    expect(good.body).toMatchObject({ valid: true, reason: 'SIGNATURE_VALID', proof: { valid: true, reason: null, index: 0, tree_size: 2, origin: 'oracle.test/log' } })
    expect(good.body.proof.cosigned_by.map((entry: { witness: string }) => entry.witness)).toEqual(['oracle.test/witness#ed25519', 'oracle.test/witness#ml-dsa-44'])
    const bent = proof.replace(/\nindex 0\n([A-Za-z0-9+/]{2})/, (_, two: string) => `\nindex 0\n${two === 'AA' ? 'AB' : 'AA'}`)
    expect((await post({ receipt, proof: bent })).body.proof).toMatchObject({ valid: false, reason: 'inclusion_failed' })
    expect((await post({ receipt: { ...receipt, status: 'CLOSED' }, proof })).body).toMatchObject({ valid: false, reason: 'INVALID_SIGNATURE', proof: { valid: false, reason: 'inclusion_failed' } })
    expect((await post({ receipt, proof: 42 })).status).toBe(400)
    expect((await post({ receipt })).body.proof).toBeUndefined()
    const rpc = await harness.json('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'verify_receipt', arguments: { receipt: text, proof } } }) })
    expect(JSON.parse(rpc.body.result.content[0].text)).toMatchObject({ valid: true, proof: { valid: true, index: 0 } })
  })
})

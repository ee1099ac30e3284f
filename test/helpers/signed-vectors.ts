// Vectors for the verifier package, made by a running service (in process): one object of every
// kind it signs (market state live, demo, from a batch, with an override's reason; health;
// safe-to-trade; a witness receipt; sealed daily digests with their log receipts, and the
// receipt a digest sealed before the log receipt first published), the digest answers, a
// checkpoint with its cosignatures, a live receipt exactly as /v5/status answered it with its
// tlog-proof, the published policy and the key registry. packages/verify/test/cases.ts checks
// them in Bun, Node and Chromium.
import { issueKey } from '../../src/accounts/keys'
import { makeTestApp } from './app'
import { clientKey, postJson, submission } from './checkpoints'
import { sealWithLogSizeInReceipt } from './legacy-digest'

export interface SignedObject {
  name: string
  /** The kind verifySigned must name. */
  kind: string
  object: unknown
  /** When it was issued (ms): receipts are checked at that time. */
  at: number
}

export interface ServiceVectors {
  keys: Record<string, unknown>
  objects: SignedObject[]
  checkpoint: string
  /** A live /v5/status answer, byte for byte. */
  receiptText: string
  proof: string
  policy: string
  /** Sealed /v5/audit/digest answers: one first signed with its log size (signed again since), one sealed as now. */
  digests: { firstSignedWithLogSize: Record<string, unknown>; sealedNow: Record<string, unknown> }
}

const OPEN = '2026-03-10T15:00:00.000Z'

export async function serviceVectors(): Promise<ServiceVectors> {
  const harness = makeTestApp({ now: OPEN })
  const { key } = await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })
  await harness.deps.auditTrail.sealer.startedOn()
  const keyed = { headers: { 'x-oracle-key': key } }
  const at = harness.clock.now()
  const objects: SignedObject[] = []
  const add = (name: string, kind: string, object: unknown) => objects.push({ name, kind, object, at })

  const statusResponse = await harness.request('/v5/status?mic=XNYS', keyed)
  const receiptText = await statusResponse.text()
  add('live /v5/status', 'market_state', JSON.parse(receiptText))
  add('demo /v5/demo', 'market_state', (await harness.json('/v5/demo')).body)
  add('from /v5/batch', 'market_state', (await harness.json('/v5/batch?mics=XNYS,XLON', keyed)).body.receipts[1])
  await harness.deps.overrides.set({ mic: 'XPAR', status: 'HALTED', reason: 'exchange-wide outage', expires_at: new Date(at + 3_600_000).toISOString() }, 'test')
  add('override (a reason)', 'market_state_with_reason', (await harness.json('/v5/status?mic=XPAR', keyed)).body)
  add('health /v5/health', 'health', (await harness.json('/v5/health')).body)
  add('safe-to-trade (sample door)', 'safe_to_trade', (await harness.json('/v1/safe-to-trade/sample?max_age=5')).body.receipt)
  add('witness receipt', 'witness_receipt', (await harness.json('/v1/witness/checkpoints', postJson(submission(clientKey())))).body)

  // The log integrates; the live receipt gets its proof.
  await harness.deps.transparency.integrator.tick()
  const receiptId = JSON.parse(receiptText).receipt_id as string
  const proofResponse = await harness.request(`/log/proof/receipt/${receiptId}`)
  if (proofResponse.status !== 200) throw new Error(`no proof: ${proofResponse.status} ${await proofResponse.text()}`)
  const proof = await proofResponse.text()
  const checkpoint = await (await harness.request('/log/checkpoint')).text()
  const policy = await (await harness.request('/log/policy')).text()

  // The day is sealed after midnight as the release before the log receipt sealed it (the log
  // size, here every receipt of this first day, signed inside receipt); the next day by the
  // sealer, which first signs that digest again and makes its log receipt.
  harness.clock.set('2026-03-11T00:00:20.000Z')
  await sealWithLogSizeInReceipt(harness, '2026-03-10', (await harness.deps.auditTrail.trees.tree('2026-03-10')).size)
  harness.clock.set('2026-03-11T15:00:00.000Z')
  await harness.request('/v5/status?mic=XNYS', keyed)
  harness.clock.set('2026-03-12T00:00:20.000Z')
  const sealed = await harness.deps.auditTrail.sealer.tick()
  if (JSON.stringify(sealed) !== '["2026-03-11"]') throw new Error(`the sealer sealed ${JSON.stringify(sealed)}`)
  const firstSignedWithLogSize = (await harness.json('/v5/audit/digest?date=2026-03-10')).body
  const sealedNow = (await harness.json('/v5/audit/digest?date=2026-03-11')).body
  const sealedAt = harness.clock.now()
  objects.push(
    { name: 'sealed daily digest', kind: 'daily_digest', object: sealedNow.receipt, at: sealedAt },
    { name: "sealed daily digest's log receipt", kind: 'daily_digest_log', object: sealedNow.log_receipt, at: sealedAt },
    { name: 'digest first signed with its log size: its receipt signed again', kind: 'daily_digest', object: firstSignedWithLogSize.receipt, at: sealedAt },
    { name: 'digest first signed with its log size: its log receipt', kind: 'daily_digest_log', object: firstSignedWithLogSize.log_receipt, at: sealedAt },
    { name: 'digest first signed with its log size: receipt_with_log_tree_size', kind: 'daily_digest', object: firstSignedWithLogSize.receipt_with_log_tree_size, at: sealedAt },
  )
  const keys = (await harness.json('/v5/keys')).body
  return { keys, objects, checkpoint, receiptText, proof, policy, digests: { firstSignedWithLogSize, sealedNow } }
}

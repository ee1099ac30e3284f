// A day sealed as the release between the transparency log and migration 13 sealed it: the log
// size among the members of the digest's `receipt` (docs/audit.md, "Signed digest"). The sealer's
// next run signs such a digest again over exactly digest_fields and makes its log receipt; the
// receipt first published stays served as receipt_with_log_tree_size.
import { sealedDigest } from '../../src/audit/digest'
import type { TestApp } from './app'

export async function sealWithLogSizeInReceipt(t: TestApp, date: string, logTreeSize: number, exchanges: string[] = ['XNYS']): Promise<void> {
  await t.deps.audit.flush()
  const tree = await t.deps.auditTrail.trees.tree(date)
  await t.deps.audit.store.insertDigest(date, tree.size, [], (previous) => {
    const row = sealedDigest(t.deps.signer, t.config.issuer, date, tree, exchanges, previous, new Date(t.clock.now()).toISOString())
    const { signature: _signature, ...fields } = JSON.parse(row.signed_json) as Record<string, string>
    return { ...row, signed_json: JSON.stringify(t.deps.signer.signFields({ ...fields, log_tree_size: String(logTreeSize) })), log_receipt_json: null }
  })
}

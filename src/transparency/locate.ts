// Where a receipt is in the continuous log: its audit_log position, found the way the day proofs
// find it (the leaf index of a sealed day, or the day trees' id prefixes for days not sealed
// yet; there is no index on the random receipt id), then read from the one block that holds it.
import type { AuditStore } from '../audit/store'
import type { DayTrees } from '../audit/day-tree'
import { findUnsealed, sealedLeafOf } from '../audit/queries'

export async function logPositionOf(deps: { store: AuditStore; trees: DayTrees }, receiptId: string, firstUnsealedDay: string): Promise<number | null> {
  const { sealedLeaf } = await sealedLeafOf(deps.store, receiptId)
  if (sealedLeaf) return deps.trees.seqAt(sealedLeaf.date, await deps.trees.tree(sealedLeaf.date), sealedLeaf.leaf_index)
  const found = await findUnsealed(deps, receiptId, firstUnsealedDay)
  return found ? deps.trees.seqAt(found.entry.day, found.tree, found.index) : null
}

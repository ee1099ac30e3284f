// Where a live receipt stands in the log, for the two routes that prove it: the leaf index of a
// receipt id against the log's base, or the 404 both answer when the log does not hold it.
import type { TransparencyDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { addDays } from '../../audit/dates'
import { logPositionOf } from '../locate'
import { orUnavailable } from './log'

/** A receipt_id as the service mints it: a lowercase UUID. */
export const RECEIPT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** The receipt's leaf index in the log whose first leaf is `baseSeq`; 404 RECEIPT_NOT_FOUND when it is not there. */
export async function receiptLeafIndex(deps: TransparencyDeps, receiptId: string, baseSeq: number): Promise<number> {
  const seq = await orUnavailable(async () => {
    const last = await deps.audit.store.lastDigest()
    const firstUnsealed = last ? addDays(last.date, 1) : await deps.auditTrail.sealer.startedOn()
    return logPositionOf({ store: deps.audit.store, trees: deps.auditTrail.trees }, receiptId, firstUnsealed)
  })
  if (seq === null || seq < baseSeq) throw new ApiError(404, 'RECEIPT_NOT_FOUND', 'no live receipt with this id is in the log (demo and sample-door receipts are not logged)')
  return seq - baseSeq
}

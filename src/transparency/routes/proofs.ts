// GET /log/proof/consistency?old=&new= and GET /log/proof/inclusion?id=&size=: RFC 9162 proofs
// computed from the tiles, for sizes up to the latest checkpoint's.
import { Elysia, t } from 'elysia'
import type { TransparencyDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { responses } from '../../http/openapi'
import { consistencyProof, inclusionProof } from '../proofs'
import { base64 } from '../note'
import { orUnavailable } from './log'
import { RECEIPT_ID, receiptLeafIndex } from './receipt-leaf'

const SIZE = /^(0|[1-9][0-9]{0,15})$/

export function proofRoutes(deps: TransparencyDeps) {
  const { reader } = deps.transparency
  /** A tree size from the query: decimal without leading zeros, within min..the latest checkpoint. */
  const size = async (name: string, raw: string | undefined, min: number) => {
    if (raw === undefined || !SIZE.test(raw)) throw new ApiError(400, 'INVALID_SIZE', `${name} must be a tree size: a decimal integer without leading zeros`)
    const state = await orUnavailable(() => reader.latest())
    const value = Number(raw)
    if (value < min || value > state.checkpointSize) throw new ApiError(400, 'SIZE_OUT_OF_RANGE', `${name} must be from ${min} to ${state.checkpointSize}, the size of the log's latest checkpoint`, { tree_size: state.checkpointSize })
    return { value, state }
  }
  const hashes = (list: Uint8Array[]) => list.map(base64)
  return new Elysia({ name: 'transparency-proofs' })
    .get(
      '/log/proof/consistency',
      async ({ query }) => {
        const newSize = (await size('new', query.new, 1)).value
        const old = (await size('old', query.old, 0)).value
        if (old > newSize) throw new ApiError(400, 'SIZE_OUT_OF_RANGE', 'old must not be larger than new')
        return { old, new: newSize, hashes: hashes(await orUnavailable(() => consistencyProof(reader.nodes(newSize), old, newSize))) }
      },
      {
        query: t.Object({ old: t.Optional(t.String()), new: t.Optional(t.String()) }),
        detail: {
          tags: ['transparency'],
          summary: 'Consistency proof between two tree sizes (RFC 9162 PROOF(old, new), base64 hashes; empty for old = 0 or old = new)',
          responses: responses({ 200: ['Proof', t.Object({ old: t.Integer(), new: t.Integer(), hashes: t.Array(t.String()) })], 400: 'INVALID_SIZE or SIZE_OUT_OF_RANGE' }),
        },
      },
    )
    .get(
      '/log/proof/inclusion',
      async ({ query }) => {
        const receiptId = query.id ?? ''
        if (!RECEIPT_ID.test(receiptId)) throw new ApiError(400, 'INVALID_RECEIPT_ID', 'id must be the receipt_id (lowercase UUID) of a live receipt')
        const { value: treeSize, state } = await size('size', query.size, 1)
        const index = await receiptLeafIndex(deps, receiptId, state.baseSeq)
        if (index >= treeSize) throw new ApiError(400, 'SIZE_OUT_OF_RANGE', `the receipt is leaf ${index}: it is in trees of size ${index + 1} and larger`, { leaf_index: index })
        return { id: receiptId, leaf_index: index, size: treeSize, hashes: hashes(await orUnavailable(() => inclusionProof(reader.nodes(treeSize), index, treeSize))) }
      },
      {
        query: t.Object({ id: t.Optional(t.String()), size: t.Optional(t.String()) }),
        detail: {
          tags: ['transparency'],
          summary: 'Inclusion proof of a receipt in the tree of a given size (RFC 9162 PATH, base64 hashes, leaf first)',
          responses: responses({ 200: ['Proof', t.Object({ id: t.String(), leaf_index: t.Integer(), size: t.Integer(), hashes: t.Array(t.String()) })], 400: 'INVALID_RECEIPT_ID, INVALID_SIZE or SIZE_OUT_OF_RANGE', 404: 'RECEIPT_NOT_FOUND' }),
        },
      },
    )
}

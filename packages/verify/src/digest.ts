// A sealed daily digest as the service answers it (/v5/audit/digest, or an item of
// /v5/audit/chain): up to three signed objects, each checked by verifySigned, then against each
// other and against the digest's own (unsigned) members.
//   receipt                     digest_fields, exactly: the day's root, count, chain link
//   log_receipt                 digest_log_fields (type audit.digest-log/1): the log size holding the day
//   receipt_with_log_tree_size  a digest sealed between the transparency log and the log receipt:
//                               its receipt as first published, log_tree_size signed beside
//                               digest_fields (digest_optional_fields, as published then)
import { DEFAULT_FIELD_LISTS } from './fields.js'
import { verifySigned, type KeysDocument, type SignedVerdict } from './signed.js'

export type DigestFailure = 'not_sealed' | 'malformed' | 'invalid_receipt' | 'invalid_log_receipt' | 'invalid_first_receipt' | 'mismatch'

export interface DigestVerdict {
  valid: boolean
  reason?: DigestFailure
  message: string
  date?: string
  merkleRoot?: string
  /** The size of the transparency log holding the day and the days before, as signed (absent before the log). */
  logTreeSize?: number
  /** The origin of that log (its checkpoints name it); only from a log receipt. */
  logOrigin?: string
  receipt?: SignedVerdict
  logReceipt?: SignedVerdict
  firstPublished?: SignedVerdict
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

const text = (value: unknown) => (typeof value === 'string' ? value : null)
const integer = (value: unknown) => (Number.isSafeInteger(value) ? String(value) : null)
/** The digest's members that its signed objects state too, each with the string form it is signed in. */
const SIGNED_FORM: [string, (value: unknown) => string | null][] = [
  ['date', text],
  ['merkle_root', text],
  ['previous_day_merkle_root', (value) => (value === null ? '' : text(value))],
  ['chain_length', integer],
  ['total_receipts_issued', integer],
  ['exchanges_attested', (value) => (Array.isArray(value) && value.every((item) => typeof item === 'string') ? JSON.stringify(value) : null)],
  ['log_tree_size', integer],
]

/**
 * Verifies a sealed digest answer with the keys document: its receipt; its log receipt and its
 * first-published receipt when it has them; that they name the same day, root and issuer (the
 * first-published receipt every digest_fields member but the key id, the log receipt's size
 * when both sign one); and that the answer's own members say what is signed.
 */
export function verifyDigest(answer: unknown, keys: KeysDocument): DigestVerdict {
  if (!isObject(answer)) return { valid: false, reason: 'malformed', message: 'a digest is a JSON object' }
  if (answer.partial === true || !('receipt' in answer)) return { valid: false, reason: 'not_sealed', message: 'nothing is signed in this digest: its day is not sealed yet (sealing follows midnight UTC)' }
  const receipt = verifySigned(answer.receipt, keys)
  if (!receipt.valid) return { valid: false, reason: 'invalid_receipt', message: `the digest's receipt: ${receipt.message}`, receipt }
  if (receipt.kind !== 'daily_digest') return { valid: false, reason: 'invalid_receipt', message: `the digest's receipt is a ${receipt.kind}, not a digest`, receipt }
  const signed = Object.fromEntries(receipt.signedMembers!)
  const verdict: DigestVerdict = { valid: false, message: '', date: signed.date, merkleRoot: signed.merkle_root, receipt }
  const fail = (reason: DigestFailure, message: string): DigestVerdict => ({ ...verdict, reason, message })
  // A receipt not signed again yet (the signer was offline since the upgrade) signs the size itself.
  let logTreeSize = signed.log_tree_size

  if ('log_receipt' in answer) {
    const logReceipt = verifySigned(answer.log_receipt, keys)
    verdict.logReceipt = logReceipt
    if (!logReceipt.valid) return fail('invalid_log_receipt', `the digest's log receipt: ${logReceipt.message}`)
    if (logReceipt.kind !== 'daily_digest_log') return fail('invalid_log_receipt', `the digest's log receipt is a ${logReceipt.kind}, not a log receipt`)
    const log = Object.fromEntries(logReceipt.signedMembers!)
    for (const name of ['date', 'merkle_root', 'issuer']) if (log[name] !== signed[name]) return fail('mismatch', `the log receipt's ${name} is not the digest's`)
    if (logTreeSize !== undefined && log.log_tree_size !== logTreeSize) return fail('mismatch', 'the log receipt signs another log size than the receipt')
    logTreeSize = log.log_tree_size
    verdict.logOrigin = log.log_origin
  }

  if ('receipt_with_log_tree_size' in answer) {
    const first = verifySigned(answer.receipt_with_log_tree_size, keys)
    verdict.firstPublished = first
    if (!first.valid) return fail('invalid_first_receipt', `the digest's receipt as first published: ${first.message}`)
    if (first.kind !== 'daily_digest' || !first.optionalMembers?.includes('log_tree_size')) return fail('invalid_first_receipt', "the digest's receipt as first published is not a digest receipt that signs log_tree_size")
    const firstSigned = Object.fromEntries(first.signedMembers!)
    // Signed again with the current key: every member the same but the key id.
    for (const name of DEFAULT_FIELD_LISTS.digest_fields!) if (name !== 'public_key_id' && firstSigned[name] !== signed[name]) return fail('mismatch', `the receipt as first published differs from the receipt in ${name}`)
    if (logTreeSize !== undefined && firstSigned.log_tree_size !== logTreeSize) return fail('mismatch', 'the receipt as first published signs another log size than the log receipt')
    logTreeSize = firstSigned.log_tree_size
  }

  const allSigned: Record<string, string> = { ...signed, ...(logTreeSize === undefined ? {} : { log_tree_size: logTreeSize }) }
  for (const [name, signedForm] of SIGNED_FORM) if (name in answer && signedForm(answer[name]) !== (allSigned[name] ?? null)) return fail('mismatch', `the digest's ${name} is not what its signed objects say`)
  if (logTreeSize !== undefined && !/^(0|[1-9][0-9]{0,15})$/.test(logTreeSize)) return fail('malformed', 'the signed log size is not a decimal integer')
  const size = logTreeSize === undefined ? undefined : Number(logTreeSize)
  const signedBy = [verdict.receipt, verdict.logReceipt, verdict.firstPublished].filter((item) => item !== undefined).map((item) => item.keyId)
  return {
    ...verdict,
    valid: true,
    ...(size === undefined ? {} : { logTreeSize: size }),
    message: `digest of ${signed.date} (root ${signed.merkle_root}, ${signed.total_receipts_issued} receipts)${size === undefined ? ', sealed before the transparency log' : `, held by the log${verdict.logOrigin ? ` ${verdict.logOrigin}` : ''} within its first ${size} entries`}; signed with ${[...new Set(signedBy)].join(', ')}`,
  }
}

// The package's cases over what a running openbell service made (test/helpers/signed-vectors.ts
// of the repository): every kind it signs, both kinds of sealed digest answer, a checkpoint, a
// receipt with its tlog-proof and the policy.
import { parseVkey, toBase64, utf8, verifyDigest, verifyReceiptProof, verifySigned, verifyTlogProof, type KeysDocument } from '../src/index.js'
import { b64, check, cosignerVkey, flipped, same, type Case } from './check.js'

export function serviceCases(service: any): Case[] {
  const list: Case[] = []
  const add = (name: string, run: () => void) => list.push({ name, run })
  const keys = service.keys as KeysDocument
  const receipt = JSON.parse(service.receiptText)
  const proof: string = service.proof
  const policy: string = service.policy

  add('every kind the service signs verifies from /v5/keys at the time it was issued, and names its kind', () => {
    const kinds = ['market_state', 'market_state_with_reason', 'health', 'safe_to_trade', 'witness_receipt', 'daily_digest', 'daily_digest_log']
    same(kinds.filter((kind) => !service.objects.some((object: { kind: string }) => object.kind === kind)), [], 'an object of every kind')
    for (const { name, kind, object, at } of service.objects) {
      const verdict = verifySigned(object, keys, { now: at })
      same({ name, valid: verdict.valid, kind: verdict.kind, fieldList: verdict.fieldList }, { name, valid: true, kind, fieldList: verdict.fieldList }, 'verdict')
      // Each signs exactly its published list; only the receipt as first published signs one member more.
      const expected = [...(keys.canonical_payload_spec![verdict.fieldList!] as string[]), ...(name.endsWith('receipt_with_log_tree_size') ? ['log_tree_size'] : [])].sort()
      same({ name, signed: verdict.signedMembers!.map(([member]) => member) }, { name, signed: expected }, 'signed members')
    }
  })

  add("a digest's log receipt: signed over digest_log_fields of /v5/keys, bound to its day, root and log size", () => {
    const { sealedNow } = service.digests
    const logReceipt = sealedNow.log_receipt as Record<string, string>
    const verdict = verifySigned(logReceipt, keys)
    same([verdict.valid, verdict.kind, verdict.fieldList, verdict.unsignedMembers], [true, 'daily_digest_log', 'digest_log_fields', []], 'as issued')
    same([logReceipt.type, logReceipt.date, logReceipt.merkle_root, logReceipt.log_tree_size], ['audit.digest-log/1', sealedNow.date, sealedNow.merkle_root, String(sealedNow.log_tree_size)], 'what it says')
    for (const member of ['log_tree_size', 'log_origin', 'date', 'merkle_root']) same({ member, reason: verifySigned({ ...logReceipt, [member]: `${logReceipt[member]}0` }, keys).reason }, { member, reason: 'invalid_signature' }, 'a changed member')
    // Without its type it is read as a digest receipt, which it is not.
    const { type: _type, ...untyped } = logReceipt
    same(verifySigned(untyped, keys).valid, false, 'without its type')
  })

  add('a digest first signed with its log size: the receipt as first published verifies as published (digest_fields and, under digest_optional_fields, log_tree_size); the member signs only there', () => {
    const digest = service.digests.firstSignedWithLogSize
    const first = digest.receipt_with_log_tree_size as Record<string, string>
    const verdict = verifySigned(first, keys)
    same([verdict.valid, verdict.kind, verdict.fieldList, verdict.optionalMembers, verdict.unsignedMembers], [true, 'daily_digest', 'digest_fields', ['log_tree_size'], []], 'as first published')
    same(first.log_tree_size, (digest.log_receipt as Record<string, string>).log_tree_size, 'the size its log receipt signs again')
    same(verifySigned({ ...first, log_tree_size: `${first.log_tree_size}0` }, keys).reason, 'invalid_signature', 'a changed size')
    const { log_tree_size: _size, ...without } = first
    same(verifySigned(without, keys).reason, 'invalid_signature', 'the member removed')
    // The receipt signed again signs exactly digest_fields: a log size added to it was never signed.
    const again = digest.receipt as Record<string, string>
    same([verifySigned(again, keys).valid, verifySigned(again, keys).optionalMembers], [true, undefined], 'signed again')
    same(verifySigned({ ...again, log_tree_size: first.log_tree_size }, keys).reason, 'invalid_signature', 'a log size added to the receipt signed again')
    // The lists come from the keys document; one kept from before the optional list existed still verifies it (the package's copy, unchanged since).
    const { digest_optional_fields: _optional, ...olderSpec } = keys.canonical_payload_spec as Record<string, unknown>
    same(verifySigned(first, { ...keys, canonical_payload_spec: olderSpec }).valid, true, 'a keys document without digest_optional_fields')
  })

  add('verifyDigest: both sealed digest answers hold together; each way of making them disagree fails for its reason', () => {
    const { firstSignedWithLogSize: old, sealedNow: now } = service.digests
    const good = [verifyDigest(old, keys), verifyDigest(now, keys)]
    check(good.every((verdict) => verdict.valid), good.map((verdict) => verdict.message).join('; '))
    same([good[0]!.logTreeSize, good[1]!.logTreeSize, good[1]!.logOrigin], [old.log_tree_size, now.log_tree_size, now.log_receipt.log_origin], 'the signed sizes')
    same(verifyDigest({ ...now, log_tree_size: now.log_tree_size + 1 }, keys).reason, 'mismatch', 'an unsigned size changed')
    same(verifyDigest({ ...now, total_receipts_issued: now.total_receipts_issued + 1 }, keys).reason, 'mismatch', 'an unsigned count changed')
    const { log_receipt: _log, ...withoutLog } = now
    same(verifyDigest(withoutLog, keys).reason, 'mismatch', 'a size nothing signs')
    same(verifyDigest({ ...now, log_receipt: old.log_receipt }, keys).reason, 'mismatch', "another day's log receipt")
    same(verifyDigest({ ...old, receipt_with_log_tree_size: { ...old.receipt_with_log_tree_size, log_tree_size: '999' } }, keys).reason, 'invalid_first_receipt', 'a changed first receipt')
    same(verifyDigest({ ...now, receipt: old.receipt }, keys).reason, 'mismatch', "another day's receipt")
    same(verifyDigest({ ...now, receipt: now.log_receipt }, keys).reason, 'invalid_receipt', 'a log receipt as the receipt')
    same(verifyDigest({ ...now, partial: true }, keys).reason, 'not_sealed', 'partial')
  })

  add("a changed signed member fails as invalid_signature; an unknown key as unknown_key; a receipt past its 60 seconds as expired", () => {
    for (const { name, object, at } of service.objects) {
      const record = object as Record<string, string>
      const member = ['receipt_id', 'merkle_root', 'count'].find((m) => typeof record[m] === 'string')!
      same({ name, reason: verifySigned({ ...record, [member]: `${record[member]}x` }, keys, { now: at }).reason }, { name, reason: 'invalid_signature' }, 'changed member')
      same({ name, reason: verifySigned({ ...record, public_key_id: 'key_other' }, keys, { now: at }).reason }, { name, reason: 'unknown_key' }, 'other key id')
    }
    const live = service.objects[0]
    const late = verifySigned(live.object, keys, { now: live.at + 61_000 })
    same([late.valid, late.reason, late.signatureValid], [false, 'expired', true], 'expired')
    same(verifySigned(live.object, keys, { now: live.at + 59_000 }).valid, true, 'within 60 s')
    same(verifySigned({ hello: 'world' }, keys).reason, 'unknown_kind', 'not a signed kind')
  })

  add("the log's checkpoint verifies with its Ed25519 and ML-DSA-44 log keys and its witness's two cosignatures", () => {
    const verdict = verifySigned(service.checkpoint, keys)
    check(verdict.valid, verdict.message)
    same([verdict.logKeys?.length, verdict.cosignatures?.length], [2, 2], 'keys that signed')
    const tampered = service.checkpoint.replace(/\n(\d+)\n/, (_: string, n: string) => `\n${Number(n) + 1}\n`)
    same(verifySigned(tampered, keys).reason, 'invalid_signature', 'a changed size')
  })

  add("a receipt's tlog-proof verifies offline under the published policy, bound to the receipt's bytes", () => {
    const verdict = verifyReceiptProof(service.receiptText, proof, policy, { keys, now: Date.parse(receipt.issued_at) })
    check(verdict.valid, verdict.message)
    check(verdict.signature?.valid === true, 'the receipt signature')
    same(verifyTlogProof(proof, policy, utf8(service.receiptText)).valid, true, 'verifyTlogProof over the answered bytes')
    same(verifyReceiptProof(receipt, proof, policy).valid, true, 'the parsed receipt serialises to the same bytes')
  })

  add('an altered inclusion path, checkpoint, cosignature or extra line each fails for its own reason', () => {
    const lines = proof.split('\n')
    const pathAt = lines.findIndex((line, i) => i > 1 && /^[A-Za-z0-9+/]{43}=$/.test(line))
    check(pathAt > 0, 'the proof has a path')
    const alter = (at: number, change: (line: string) => string) => lines.map((line, i) => (i === at ? change(line) : line)).join('\n')
    const bentHash = (line: string) => toBase64(flipped(b64(line)))
    same(verifyReceiptProof(service.receiptText, alter(pathAt, bentHash), policy).reason, 'inclusion_failed', 'inclusion path')
    const blank = lines.indexOf('', 2)
    same(verifyReceiptProof(service.receiptText, alter(blank + 3, bentHash), policy).reason, 'log_signature_invalid', 'checkpoint root')
    const witnessLine = lines.findIndex((line) => line.startsWith('\u2014 ') && line.includes('/witness '))
    const bentSignature = (line: string) => {
      const [dash, name, sig] = line.split(' ')
      return `${dash} ${name} ${toBase64(flipped(b64(sig!), 40))}`
    }
    same(verifyReceiptProof(service.receiptText, alter(witnessLine, bentSignature), policy).reason, 'cosignature_invalid', 'cosignature')
    const other = { ...receipt, receipt_id: '00000000-0000-4000-8000-000000000000' }
    same(verifyReceiptProof(service.receiptText, alter(1, () => `extra ${toBase64(utf8(other.receipt_id))}`), policy).reason, 'extra_mismatch', 'extra line')
    same(verifyReceiptProof(JSON.stringify({ ...receipt, status: 'CLOSED' }), proof, policy).reason, 'inclusion_failed', 'another receipt')
  })

  add('a policy with a quorum of two fails with one cosignature; post-quantum only passes on the ML-DSA-44 signatures; an unknown log fails', () => {
    const selfGroup = /^group (\S+) any /m.exec(policy)![1]!
    const withOther = policy.replace(/^quorum .*$/m, `witness someone-else ${cosignerVkey('other.example/w', 9)}\ngroup two 2 ${selfGroup} someone-else\nquorum two`)
    const two = verifyTlogProof(proof, withOther, utf8(service.receiptText))
    same([two.valid, two.reason], [false, 'quorum_not_met'], 'quorum of two')
    // Drop every Ed25519 key: the ML-DSA-44 log signature and cosignature still carry the proof.
    const pq = policy.split('\n').filter((line) => !(line.startsWith('log ') && parseVkey(line.split(' ')[1]!)?.type === 1) && !(line.startsWith('witness ') && line.includes('#ed25519 '))).join('\n').replace(/^group (\S+) any .*$/m, `group $1 any ${selfGroup}#ml-dsa-44`)
    const pqVerdict = verifyTlogProof(proof, pq, utf8(service.receiptText))
    check(pqVerdict.valid && pqVerdict.logKeys!.length === 1 && pqVerdict.cosignatures!.length === 1, `post-quantum only: ${pqVerdict.message}`)
    // And without the log's ML-DSA-44 line the post-quantum policy finds no log signature.
    const withoutMlDsaLog = proof.split('\n').filter((line, i, all) => !(line.startsWith('\u2014 ') && all.indexOf(line) === i && line.split(' ')[1] === receiptOrigin(proof) && b64(line.split(' ')[2]!).length > 100)).join('\n')
    same(verifyTlogProof(withoutMlDsaLog, pq, utf8(service.receiptText)).reason, 'log_signature_missing', 'no ML-DSA log line')
    same(verifyTlogProof(proof, 'quorum none\n', utf8(service.receiptText)).reason, 'unknown_log', 'no log in the policy')
  })
  return list
}

const receiptOrigin = (proof: string) => proof.split('\n\n')[1]!.split('\n')[0]!

// @openbell/verify: offline verification of everything an openbell service signs, with nothing
// but @noble libraries. Runs unchanged in Bun, Node 20+ and browsers.
export { verifySigned, canonicalPayload, type KeysDocument, type PublishedKey, type SignedVerdict, type SignedFailure, type VerifyOptions } from './signed.js'
export { verifyTlogProof, parseTlogProof, formatTlogProof, TLOG_PROOF_HEADER, type ProofVerdict, type ProofFailure, type TlogProof } from './tlog-proof.js'
export { verifyReceiptProof, receiptEntry, type ReceiptProofVerdict } from './receipt-proof.js'
export { verifyDigest, type DigestVerdict, type DigestFailure } from './digest.js'
export { parsePolicy, quorumMet, POLICY_LIMITS, type Policy, type PolicyGroup, type PolicyResult } from './policy.js'
export { parseNote, parseVkey, keyId, describeKey, SIG_ED25519, SIG_COSIGNATURE_ED25519, SIG_COSIGNATURE_ML_DSA_44, type Note, type NoteSignature, type Vkey } from './note.js'
export { checkSignature, lineKeyId, subtreeMessage, cosignatureV1Message, type SignatureCheck } from './cosignature.js'
export { parseCheckpoint, type Checkpoint } from './checkpoint.js'
export { rootFromInclusionProof, validSubtree, verifySubtreeConsistency } from './merkle.js'
export { fieldListOf, DEFAULT_FIELD_LISTS, DEFAULT_OPTIONAL_FIELDS, DIGEST_LOG_TYPE, type SignedKind } from './fields.js'
export { leafHash, nodeHash, sha256, ed25519Verify, mlDsa44Verify } from './crypto.js'
export { fromBase64, toBase64, fromHex, toHex, utf8, fromUtf8 } from './bytes.js'

// A verifier written from the specification alone (../shared/spec/main-api.md 2.3, 2.4, 2.5, 2.7;
// witness.md 2.1-2.3), as a third-party client would write it: it imports nothing of the
// service (test/compat/compat.test.ts checks that), only the runtime's Ed25519 and SHA-256.
//
// The rule it applies to every signed object: take exactly the fields of the list the key
// registry (/v5/keys canonical_payload_spec) gives for the object's kind, every value a string,
// keys sorted, compact JSON, UTF-8; verify the 128-hex-character Ed25519 signature with the
// 32-byte hex public_key of the registry entry whose key_id equals the object's public_key_id.
// Nothing else: no optional members, no rule the specification does not state.
import { createHash, createPublicKey, verify } from 'node:crypto'

export interface Registry {
  keys: { key_id: string; public_key: string }[]
  canonical_payload_spec: Record<string, unknown>
}

export type Verdict = { ok: true } | { ok: false; why: string }

const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex')
const fail = (why: string): Verdict => ({ ok: false, why })

/** Ed25519 (RFC 8032) over `message` with a 32-byte public key given as hex. */
export function ed25519(publicKeyHex: string, signature: Uint8Array, message: Uint8Array): boolean {
  if (!/^[0-9a-f]{64}$/.test(publicKeyHex) || signature.length !== 64) return false
  const key = createPublicKey({ key: Buffer.concat([SPKI_ED25519, Buffer.from(publicKeyHex, 'hex')]), format: 'der', type: 'spki' })
  return verify(null, message, key, signature)
}

/** The canonical payload: exactly `fields`, keys sorted, compact JSON; null when a field is missing or not a string. */
export function canonicalPayload(object: Record<string, unknown>, fields: readonly string[]): string | null {
  const out: Record<string, string> = {}
  for (const name of [...fields].sort()) {
    const value = object[name]
    if (typeof value !== 'string') return null
    out[name] = value
  }
  return JSON.stringify(out)
}

/** The list `name` of the registry's canonical_payload_spec. */
export function fieldList(registry: Registry, name: string): string[] {
  const list = registry.canonical_payload_spec[name]
  if (!Array.isArray(list) || !list.every((field) => typeof field === 'string')) throw new Error(`the key registry publishes no field list ${name}`)
  return list as string[]
}

/** Verifies `object` over exactly the list `listName` of the registry. */
export function verifySigned(registry: Registry, object: Record<string, unknown>, listName: string): Verdict {
  const fields = fieldList(registry, listName)
  const payload = canonicalPayload(object, fields)
  if (payload === null) return fail(`a field of ${listName} is missing or not a string`)
  if (typeof object.signature !== 'string' || !/^[0-9a-f]{128}$/.test(object.signature)) return fail('signature is not 128 lowercase hex characters')
  const key = registry.keys.find((entry) => entry.key_id === object.public_key_id)
  if (!key) return fail(`no key ${String(object.public_key_id)} in the registry`)
  return ed25519(key.public_key, Buffer.from(object.signature, 'hex'), Buffer.from(payload, 'utf8')) ? { ok: true } : fail(`the signature does not verify over exactly ${listName}`)
}

/**
 * As a client written between the transparency log and the digest's log receipt verified a digest
 * receipt: the registry then said digest_optional_fields are "signed when present", so the
 * payload is digest_fields and each of those members the receipt carries. (A rule of that time,
 * not of the specification: it is kept here to show that what was published then still verifies
 * under it, and that such a client accepts the receipts signed since.)
 */
export function verifyDigestAsPublishedWithOptional(registry: Registry, receipt: Record<string, unknown>): Verdict {
  const optional = fieldList(registry, 'digest_optional_fields').filter((name) => name in receipt)
  const fields = [...fieldList(registry, 'digest_fields'), ...optional]
  const payload = canonicalPayload(receipt, fields)
  if (payload === null) return fail('a field is missing or not a string')
  if (typeof receipt.signature !== 'string' || !/^[0-9a-f]{128}$/.test(receipt.signature)) return fail('signature is not 128 lowercase hex characters')
  const key = registry.keys.find((entry) => entry.key_id === receipt.public_key_id)
  if (!key) return fail(`no key ${String(receipt.public_key_id)} in the registry`)
  return ed25519(key.public_key, Buffer.from(receipt.signature, 'hex'), Buffer.from(payload, 'utf8')) ? { ok: true } : fail('the signature does not verify over digest_fields and the optional members present')
}

/**
 * The list a market-state, health or safe-to-trade receipt uses (main-api 2.3-2.5 and the
 * registry's field_list_selection): safe-to-trade has venue and safe; a market-state receipt has
 * mic, with reason when its source is OVERRIDE (or a real-time halt); a health receipt has neither.
 */
export function receiptList(receipt: Record<string, unknown>): string {
  if ('venue' in receipt && 'safe' in receipt) return 'safe_to_trade_fields'
  if ('mic' in receipt) return 'reason' in receipt ? 'override_fields' : 'receipt_fields'
  return 'health_fields'
}

/** A receipt (2.3-2.5): its list, and not expired at `now` (milliseconds). */
export function verifyReceipt(registry: Registry, receipt: Record<string, unknown>, now: number): Verdict {
  const verdict = verifySigned(registry, receipt, receiptList(receipt))
  if (!verdict.ok) return verdict
  const expires = Date.parse(String(receipt.expires_at))
  return Number.isFinite(expires) && now <= expires ? verdict : fail(`expired at ${String(receipt.expires_at)}`)
}

/** JCS (RFC 8785) of a flat object of strings and numbers: keys sorted, no whitespace. */
export const jcsFlat = (object: Record<string, unknown>) => JSON.stringify(Object.fromEntries(Object.keys(object).sort().map((key) => [key, object[key]])))

/**
 * A witness receipt (witness.md 2.3): "all fields except signature, keys sorted" (which must be
 * the registry's witness_fields), and that it is the receipt of `checkpoint`.
 */
export function verifyWitnessReceipt(registry: Registry, receipt: Record<string, unknown>, checkpoint: Record<string, unknown>): Verdict {
  const own = Object.keys(receipt).filter((name) => name !== 'signature').sort()
  if (JSON.stringify(own) !== JSON.stringify([...fieldList(registry, 'witness_fields')].sort())) return fail(`a witness receipt's fields (${own.join(', ')}) are not witness_fields`)
  const verdict = verifySigned(registry, receipt, 'witness_fields')
  if (!verdict.ok) return verdict
  if (receipt.type !== 'witness.checkpoint/1') return fail('type is not witness.checkpoint/1')
  for (const field of ['kid', 'session_id', 'last_entry_hash'] as const) if (receipt[field] !== checkpoint[field]) return fail(`${field} is not the checkpoint's`)
  if (receipt.count !== String(checkpoint.count)) return fail('count is not the checkpoint count as a decimal string')
  const sha = `sha256:${createHash('sha256').update(jcsFlat(checkpoint)).digest('hex')}`
  if (receipt.checkpoint_sha256 !== sha) return fail('checkpoint_sha256 is not the SHA-256 of the JCS of the checkpoint')
  return { ok: true }
}

/** RFC 6962 Merkle root (lowercase hex) of receipt ids in order; SHA-256("") for none. */
export function merkleRoot(ids: readonly string[]): string {
  const leaf = (id: string) => createHash('sha256').update(Buffer.from([0])).update(id, 'utf8').digest()
  const root = (items: readonly string[]): Buffer => {
    if (items.length === 1) return leaf(items[0]!)
    let k = 1
    while (k * 2 < items.length) k *= 2
    return createHash('sha256').update(Buffer.from([1])).update(root(items.slice(0, k))).update(root(items.slice(k))).digest()
  }
  return ids.length ? root(ids).toString('hex') : createHash('sha256').update('').digest('hex')
}

/** The members of a signed object beside its signature. */
export const membersOf = (object: Record<string, unknown>) => Object.keys(object).filter((name) => name !== 'signature').sort()

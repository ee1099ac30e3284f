// Canonical bytes for signing. Receipts are flat objects of strings; RFC 8785 (JCS) for such an
// object is JSON with members sorted by UTF-16 code units and no whitespace, which is what
// JSON.stringify gives when the keys are inserted in sorted order.

export type FlatJsonValue = string | number | boolean | null

/** RFC 8785 canonical JSON text of a flat object (no nested objects or arrays). */
export function jcsFlat(object: Record<string, FlatJsonValue>): string {
  const keys = Object.keys(object).sort()
  let out = '{'
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const value = object[key]
    if (value !== null && typeof value === 'object') throw new TypeError(`jcsFlat: member ${key} is not a scalar`)
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError(`jcsFlat: member ${key} is not a finite number`)
    if (value === undefined) throw new TypeError(`jcsFlat: member ${key} is undefined`)
    if (i > 0) out += ','
    out += JSON.stringify(key) + ':' + JSON.stringify(value)
  }
  return out + '}'
}

/**
 * The signed payload of a receipt: every value must be a string (a number or boolean would make
 * two verifiers disagree on its text), keys sorted, compact JSON, UTF-8.
 */
export function canonicalPayload(fields: Record<string, string>): string {
  // One native JSON.stringify over a copy built in sorted key order (twice as fast as joining
  // per-member strings on the hot path; the bytes are identical, a test checks it).
  const sorted: Record<string, string> = {}
  for (const key of Object.keys(fields).sort()) {
    const value = fields[key]
    if (typeof value !== 'string') throw new TypeError(`canonicalPayload: field ${key} is not a string`)
    sorted[key] = value
  }
  return JSON.stringify(sorted)
}

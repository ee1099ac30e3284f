// Reading the JSON body of POST /v5/admin/overrides so that what is echoed, stored and signed are
// the same text: duplicate member names (JSON.parse keeps the last, other parsers the first) and
// lone UTF-16 surrogates (echoed as-is, but signed as U+FFFD once encoded as UTF-8) are refused.
import { ApiError } from '../../http/errors'
import { firstDuplicateMember } from '../../http/json-duplicates'

export const OVERRIDE_MEMBERS = ['mic', 'status', 'reason', 'expires_at', 'operator'] as const
/** Every member at its longest (reason: 500 characters of up to 4 bytes) fits well within this. */
export const MAX_OVERRIDE_BODY_BYTES = 8192

const invalidBody = (field: string, message: string) => new ApiError(400, 'INVALID_BODY', message, { field })

export function parseOverrideBody(text: string): Record<string, unknown> {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new ApiError(400, 'BAD_REQUEST', 'body must be JSON: {mic, status, reason, expires_at}')
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'BAD_REQUEST', 'body must be a JSON object')
  const duplicate = firstDuplicateMember(text)
  if (duplicate !== null) throw invalidBody(duplicate, `member ${JSON.stringify(duplicate.slice(0, 64))} is given more than once`)
  const input = body as Record<string, unknown>
  const extra = Object.keys(input).filter((key) => !(OVERRIDE_MEMBERS as readonly string[]).includes(key))
  if (extra.length) throw new ApiError(400, 'BAD_REQUEST', `unknown members: ${extra.join(', ')}`)
  for (const [field, value] of Object.entries(input)) {
    if (typeof value === 'string' && !value.isWellFormed()) throw invalidBody(field, `${field} contains a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape); send valid Unicode text`)
  }
  return input
}

// Helpers to describe responses in the OpenAPI document without runtime response validation
// (which would cost time on the hot path).
import { t, type TSchema } from 'elysia'

export const ErrorSchema = t.Object(
  {
    error: t.String({ description: 'machine code' }),
    message: t.Optional(t.String()),
    status: t.Optional(t.Literal('UNKNOWN', { description: 'present on CRITICAL_FAILURE' })),
    supported: t.Optional(t.Array(t.String(), { description: 'present on UNKNOWN_MIC' })),
  },
  { additionalProperties: true },
)

type ResponseDoc = string | [description: string, schema: TSchema, contentType?: string]

export function responses(map: Record<number, ResponseDoc>) {
  const out: Record<string, { description: string; content?: Record<string, { schema: TSchema }> }> = {}
  for (const [status, doc] of Object.entries(map)) {
    if (typeof doc === 'string') {
      out[status] = { description: doc, content: Number(status) >= 400 ? { 'application/json': { schema: ErrorSchema } } : undefined }
    } else {
      const [description, schema, contentType = 'application/json'] = doc
      out[status] = { description, content: { [contentType]: { schema } } }
    }
  }
  return out
}

/**
 * Marks a query parameter that the route requires but checks itself, to answer its own error code
 * (MIC_REQUIRED…) rather than the validator's BAD_REQUEST: declare it `t.Optional`
 * with this option, and the OpenAPI document lists it as required.
 */
export const REQUIRED_IN_DOCUMENT = 'x-openbell-required'
export const requiredByRoute = { [REQUIRED_IN_DOCUMENT]: true } as const

/** A JSON request body for the OpenAPI document (TypeBox and OpenAPI types disagree on a few keywords). */
export function jsonBody(schema: TSchema) {
  return { content: { 'application/json': { schema: schema as never } } }
}

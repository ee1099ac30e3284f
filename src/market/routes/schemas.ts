// Response schemas shared by the market routes (documentation only; not validated at runtime).
import { t } from 'elysia'

export const SignedReceiptSchema = t.Object(
  {
    receipt_id: t.String({ format: 'uuid' }),
    issued_at: t.String({ format: 'date-time' }),
    expires_at: t.String({ format: 'date-time', description: 'do not act after this time' }),
    issuer: t.String(),
    mic: t.String(),
    status: t.Union([t.Literal('OPEN'), t.Literal('CLOSED'), t.Literal('HALTED'), t.Literal('UNKNOWN')]),
    source: t.Union([t.Literal('SCHEDULE'), t.Literal('OVERRIDE'), t.Literal('SYSTEM'), t.Literal('REALTIME')]),
    reason: t.Optional(t.String({ description: 'present (and signed) with OVERRIDE and REALTIME' })),
    halt_detection: t.Union([t.Literal('active'), t.Literal('schedule_only')]),
    receipt_mode: t.Union([t.Literal('demo'), t.Literal('live')]),
    schema_version: t.Literal('v5.0'),
    public_key_id: t.String(),
    signature: t.String({ pattern: '^[0-9a-f]{128}$' }),
  },
  { description: 'Signed fields: receipt_fields (override_fields when reason is present) of /v5/keys' },
)

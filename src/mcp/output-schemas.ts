// The output schema of each tool (2025-11-25 and later): what its structuredContent always
// validates against, the tool's answer or the spec's error object (a tool error is a result too).
// The answers' objects are open (additionalProperties allowed): a member a later release adds must
// not make an SDK client reject the result, while every member an agent relies on is required and
// typed. Plain JSON Schema (no $ref, no format) so that any validator a client uses reads it.
// test/mcp/output-schemas.test.ts validates many real answers, errors included, with ajv 2020-12.
import Type, { type TSchema } from 'typebox'
import { DAY_KINDS } from '../calendar/days'

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])
const Instant = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{3})?Z$', description: 'UTC instant, ISO 8601' })
const LocalDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'local date YYYY-MM-DD' })
const LocalTime = Type.String({ pattern: '^\\d{2}:\\d{2}$', description: 'local wall time HH:MM' })
const Url = Type.String({ pattern: '^https?://' })
const open = { additionalProperties: true } as const

/** The spec's error object: a machine code and a sentence, with further members by code (supported, status, limit…). */
export const ErrorObject = Type.Object(
  { error: Type.String({ pattern: '^[A-Z][A-Z0-9_]*$', description: 'machine code, e.g. UNKNOWN_MIC, INVALID_ARGUMENTS, RANGE_TOO_LONG, ANONYMOUS_LIMIT_REACHED' }), message: Type.String() },
  { ...open, description: 'the spec error object of a tool error (isError: true)' },
)

const MarketStatus = Type.Union([Type.Literal('OPEN'), Type.Literal('CLOSED'), Type.Literal('HALTED'), Type.Literal('UNKNOWN')])

const Receipt = Type.Object(
  {
    receipt_id: Type.String(),
    issued_at: Instant,
    expires_at: Instant,
    issuer: Type.String(),
    mic: Type.String(),
    status: MarketStatus,
    source: Type.String({ description: 'OVERRIDE, REALTIME, SCHEDULE or SYSTEM' }),
    halt_detection: Type.Union([Type.Literal('active'), Type.Literal('schedule_only')]),
    receipt_mode: Type.Literal('live'),
    schema_version: Type.String(),
    public_key_id: Type.String(),
    signature: Type.String({ pattern: '^[0-9a-f]{128}$', description: 'Ed25519 over the canonical payload of the signed fields (/v5/keys)' }),
    reason: Type.Optional(Type.String({ description: 'signed when source is OVERRIDE or REALTIME' })),
  },
  { ...open, description: 'a signed live market-state receipt' },
)

const Coverage = Type.Object({ from: Nullable(LocalDate), to: Nullable(LocalDate) }, open)

const Schedule = Type.Object(
  {
    mic: Type.String(),
    name: Type.String(),
    timezone: Type.String(),
    queried_at: Instant,
    current_status: MarketStatus,
    reason: Nullable(Type.String()),
    next_open: Nullable(Instant),
    next_close: Nullable(Instant),
    next_open_provisional: Type.Boolean(),
    next_close_provisional: Type.Boolean(),
    lunch_break: Nullable(Type.Object({ start: LocalTime, end: LocalTime }, open)),
    note: Type.String(),
    data_version: Nullable(Type.String()),
    coverage: Nullable(Coverage),
  },
  { ...open, description: 'the unsigned calendar view (/v5/schedule)' },
)

const Session = Type.Object({ open: Instant, close: Instant, open_local: LocalTime, close_local: LocalTime }, open)
const PhaseBand = Type.Object({ phase: Type.String(), from: Instant, to: Instant, from_local: LocalTime, to_local: LocalTime }, open)
const Day = Type.Object(
  {
    date: LocalDate,
    kind: Type.Union(DAY_KINDS.map((kind) => Type.Literal(kind))),
    name: Nullable(Type.String()),
    basis: Nullable(Type.Union([Type.Literal('published'), Type.Literal('rule'), Type.Literal('provisional')])),
    provisional_why: Type.Optional(Type.String()),
    sessions: Type.Array(Session),
    phases: Nullable(Type.Array(PhaseBand)),
  },
  open,
)
const Calendar = Type.Object(
  { mic: Type.String(), timezone: Type.String(), data_version: Nullable(Type.String()), coverage: Nullable(Coverage), from: LocalDate, to: LocalDate, note: Type.Optional(Type.String()), days: Type.Array(Day) },
  { ...open, description: 'the calendar by local date (/v5/calendar)' },
)

const Exchanges = Type.Object({ exchanges: Type.Array(Type.Object({ mic: Type.String(), name: Type.String(), timezone: Type.String() }, open)) }, { ...open, description: 'the covered exchanges (/v5/exchanges)' })

const Verification = Type.Object(
  {
    valid: Type.Boolean(),
    expired: Type.Boolean(),
    reason: Type.String(),
    receipt_type: Nullable(Type.String()),
    unsigned_members: Nullable(Type.Array(Type.String())),
    mic: Nullable(Type.String()),
    status: Nullable(Type.String()),
    expires_at: Nullable(Type.String()),
    proof: Type.Optional(Type.Object({ valid: Type.Boolean(), reason: Nullable(Type.String()), message: Type.String() }, { ...open, description: "with a proof argument: the tlog-proof's verdict under /log/policy" })),
  },
  { ...open, description: 'the /v5/verify result' },
)

const Endpoint = Type.Object({ method: Type.Literal('POST'), url: Url }, open)
const PaymentOptions = Type.Object(
  {
    instant_key: Endpoint,
    sandbox: Endpoint,
    oauth: Type.Object({ token_endpoint: Url, grant_type: Type.Literal('client_credentials'), token_lifetime_seconds: Type.Integer() }, open),
    x402: Type.Object({ enabled: Type.Boolean() }, open),
    credits: Nullable(Type.Object({}, open)),
    plans: Type.Object({ free: Type.Object({}, open) }, open),
    pricing: Url,
  },
  { ...open, description: 'every way to get access on this installation (the pricing document)' },
)

/** A tool's outputSchema: `type: object` at the root (2025-11-25 requires it), its answer or the error object. */
const answerOrError = (answer: TSchema) => JSON.parse(JSON.stringify({ type: 'object', anyOf: [answer, ErrorObject] }))

export const OUTPUT_SCHEMAS = {
  get_market_status: answerOrError(Receipt),
  get_market_schedule: answerOrError(Schedule),
  get_market_calendar: answerOrError(Calendar),
  list_exchanges: answerOrError(Exchanges),
  verify_receipt: answerOrError(Verification),
  get_payment_options: answerOrError(PaymentOptions),
} as const satisfies Record<string, Record<string, unknown>>

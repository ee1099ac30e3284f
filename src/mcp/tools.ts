// The tools of the tool endpoint: their schemas, descriptions and handlers. Each handler
// reuses the domain function behind the matching REST route, so a tool answers exactly what the
// route answers. Failures the caller can act on are tool results with isError, never JSON-RPC errors.
import Type, { type TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import type { McpToolDeps } from './deps'
import { ApiError } from '../http/errors'
import { parseMic } from '../calendar/mic-param'
import { SUPPORTED_MICS, type Mic } from '../calendar/mics'
import { exchangeDirectory, identityOf, unavailableReason } from '../calendar/directory'
import { scheduleView } from '../calendar/schedule'
import { cachedCalendarAnswer, parseCalendarQuery } from '../calendar/calendar-answer'
import { DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS } from '../calendar/date-range'
import { verificationKeys, verifyReceipt } from '../crypto/verify-receipt'
import { MAX_PROOF_BYTES, proofReport } from '../transparency/verify-proof'
import { paymentOptions } from './payment-options'
import { RECEIPT_TTL_SECONDS } from '../crypto/receipt-fields'
import { OUTPUT_SCHEMAS } from './output-schemas'

export interface ToolCaller {
  /** Admits one metered status call (bearer key metering, or the anonymous daily allowance); a key's count can be given back. */
  admitStatusCall(): Promise<{ refund(): Promise<void> } | void>
  /** Issues, signs and audit-logs one live receipt for this caller. */
  issueLiveReceipt(mic: Mic): Promise<Record<string, unknown>>
}

export interface ToolResult {
  content: { type: 'text'; text: string }[]
  structuredContent?: Record<string, unknown>
  isError?: boolean
}

/** The four behaviour hints, always set explicitly (an absent hint means destructive and open-world to a client). */
export interface ToolAnnotations {
  readOnlyHint: boolean
  destructiveHint: boolean
  idempotentHint: boolean
  openWorldHint: boolean
}

/**
 * Reads: nothing changes in the service or anywhere else, and the domain is this service's own
 * calendars, keys and configuration (openWorldHint false: no call reaches outside it).
 */
const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }

export interface ToolDefinition {
  name: keyof typeof OUTPUT_SCHEMAS
  title: string
  description: string
  annotations: ToolAnnotations
  inputSchema: TSchema
  run(deps: McpToolDeps, args: Record<string, unknown>, caller: ToolCaller): Promise<Record<string, unknown>>
}

const MicArgument = Type.String({ description: `ISO 10383 MIC, one of ${SUPPORTED_MICS.join(', ')}; default XNYS`, minLength: 1, maxLength: 8 })

export const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'get_market_status',
    title: 'Signed market status',
    description:
      `Signed live receipt saying whether an exchange is OPEN, CLOSED, HALTED or UNKNOWN. Treat UNKNOWN as CLOSED; do not act after expires_at (${RECEIPT_TTL_SECONDS} s). Verify the Ed25519 signature with the key at /v5/keys.`,
    // Each call appends a signed receipt to the audit log and spends one call of the caller's
    // allowance (a key's quota or credits): a change, additive only, and a repeat is not free.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    inputSchema: Type.Object({ mic: Type.Optional(MicArgument) }, { additionalProperties: false }),
    async run(_deps, args, caller) {
      const mic = parseMic(args.mic as string | undefined)
      const admitted = await caller.admitStatusCall()
      try {
        return await caller.issueLiveReceipt(mic)
      } catch (error) {
        // Signing offline or the audit log unavailable: the call is not counted against the key.
        await admitted?.refund()
        throw error
      }
    },
  },
  {
    name: 'get_market_schedule',
    title: 'Exchange schedule',
    description: 'Unsigned calendar view of an exchange: current status by calendar, next open and close (UTC), lunch break. Ignores overrides and halts; use get_market_status before acting.',
    annotations: READ_ONLY,
    inputSchema: Type.Object({ mic: Type.Optional(MicArgument) }, { additionalProperties: false }),
    async run(deps, args) {
      const mic = parseMic(args.mic as string | undefined)
      const snapshot = deps.calendars.snapshot()
      return scheduleView(deps.calendars.calendar(mic, snapshot), identityOf(snapshot, mic), deps.clock.now(), unavailableReason(snapshot, mic))
    },
  },
  {
    name: 'get_market_calendar',
    title: 'Exchange calendar by date',
    description:
      `Unsigned calendar of an exchange over a date range, as /v5/calendar answers it: each local date with its kind (regular, early_close, late_open, special, holiday, weekend, provisional, unknown), name, basis, sessions (UTC and local times) and trading phases where known. At most ${MAX_RANGE_DAYS} days per call. Dates outside coverage are unknown: treat them as closed. Use get_market_status before acting.`,
    annotations: READ_ONLY,
    inputSchema: Type.Object(
      {
        mic: Type.Optional(MicArgument),
        from: Type.Optional(Type.String({ description: 'first local date YYYY-MM-DD; default today (UTC)', maxLength: 32 })),
        to: Type.Optional(Type.String({ description: `last local date YYYY-MM-DD (inclusive); default from + ${DEFAULT_RANGE_DAYS} days`, maxLength: 32 })),
      },
      { additionalProperties: false },
    ),
    async run(deps, args) {
      // The answer /v5/calendar serves, from the same cache: parsing the cached text costs a
      // fraction of building a year of days again for every call of a batch.
      const asked = parseCalendarQuery(args as { mic?: string; from?: string; to?: string }, deps.clock.now())
      return JSON.parse(cachedCalendarAnswer(deps.calendars, deps.calendarAnswers, asked).body) as Record<string, unknown>
    },
  },
  {
    name: 'list_exchanges',
    title: 'Supported exchanges',
    description: 'The exchanges this service covers: MIC, name and IANA time zone.',
    annotations: READ_ONLY,
    inputSchema: Type.Object({}, { additionalProperties: false }),
    async run(deps) {
      return { exchanges: exchangeDirectory(deps.calendars.snapshot()).map(({ mic, name, timezone }) => ({ mic, name, timezone })) }
    },
  },
  {
    name: 'verify_receipt',
    title: 'Verify a receipt',
    description: 'Checks the Ed25519 signature and expiry of a receipt this service issued (market status, health or safe-to-trade). Pass the complete receipt object (or its JSON text); with its tlog-proof (GET /log/proof/receipt/{id}), also checks that it was logged and witnessed, under /log/policy, and reports that verdict as `proof`.',
    annotations: READ_ONLY,
    inputSchema: Type.Object(
      {
        receipt: Type.Union([Type.Object({}, { additionalProperties: true }), Type.String({ maxLength: 16_384 })], { description: 'the complete signed receipt' }),
        proof: Type.Optional(Type.String({ maxLength: MAX_PROOF_BYTES, description: "the receipt's C2SP tlog-proof text" })),
      },
      { additionalProperties: false },
    ),
    async run(deps, args) {
      const verdict = (receipt: unknown) => ({ ...verifyReceipt(verificationKeys(deps.signer), receipt, deps.clock.now()), ...(args.proof === undefined ? {} : { proof: proofReport(deps.transparency.policy, args.receipt, args.proof as string) }) })
      let receipt = args.receipt
      if (typeof receipt === 'string') {
        try {
          receipt = JSON.parse(receipt)
        } catch {
          throw new ApiError(400, 'BAD_REQUEST', 'receipt text is not JSON')
        }
      }
      return verdict(receipt)
    },
  },
  {
    name: 'get_payment_options',
    title: 'How to get access',
    description: 'Ways to get access: a free instant key, a sandbox key, x402 per-request payment (price, network, pay-to address), prepaid credits and paid plans.',
    annotations: READ_ONLY,
    inputSchema: Type.Object({}, { additionalProperties: false }),
    async run(deps) {
      return paymentOptions(deps)
    },
  },
]

const byName = new Map<string, ToolDefinition>(TOOLS.map((tool) => [tool.name, tool]))
// Compiled once: checking arguments is on the path of every call.
const validators = new Map(TOOLS.map((tool) => [tool.name, Compile(tool.inputSchema)]))

export function findTool(name: string): ToolDefinition | undefined {
  return byName.get(name)
}

const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema))
/** Up to 2025-06-18 the entries as they always were: name, title, description, input schema. */
const BRIEF_LIST = TOOLS.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema: plain(inputSchema) }))
/** From 2025-11-25: also the behaviour hints and the output schema that structuredContent always validates against. */
const FULL_LIST = TOOLS.map(({ name, title, description, annotations, inputSchema }) => ({ name, title, description, inputSchema: plain(inputSchema), outputSchema: OUTPUT_SCHEMAS[name], annotations }))

/**
 * The tools/list entries, in the one fixed order of TOOLS. Clients before 2025-11-25 (or that
 * send no MCP-Protocol-Version) get the list unchanged: an outputSchema would make an SDK client
 * that gets no structuredContent (before 2025-06-18) reject every result.
 */
export function toolList(full: boolean) {
  return full ? FULL_LIST : BRIEF_LIST
}

/** First problem of the arguments against the tool's schema, or null. */
export function argumentProblem(tool: ToolDefinition, args: unknown): string | null {
  const validator = validators.get(tool.name)!
  if (validator.Check(args)) return null
  const errors = [...validator.Errors(args)]
  const first = errors.find((error) => error.keyword !== 'boolean') ?? errors[0]
  return `${first?.instancePath || 'arguments'}: ${first?.message ?? 'invalid'}`
}

/** Wraps a tool's answer (or its spec error object) as a tools/call result. */
export function toolResult(body: Record<string, unknown>, isError: boolean, structured: boolean): ToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    ...(structured ? { structuredContent: body } : {}),
    ...(isError ? { isError: true } : {}),
  }
}

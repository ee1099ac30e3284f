// POST and GET /v1/witness/checkpoints, and the spec page their errors link to.
import { Elysia, t } from 'elysia'
import type { WitnessDeps } from './deps'
import { ApiError } from '../http/errors'
import { jsonBody, responses } from '../http/openapi'
import { clientAddress } from '../http/client-address'
import { BodyError, readBody } from '../http/body'
import { rateLimitHeaders, type RateDecision } from '../http/rate-limit'
import { accountUsable, findAccountByKey } from '../accounts/keys'
import { EVIDENCE_PLANS } from '../catalogue/plans'
import { checkBody, checkSubmission, jsonContentType, MAX_BODY_BYTES } from './checks'
import { submitCheckpoint, type Submitter } from './service'
import { AUTHORIZED_RATE, secondsToUtcMidnight } from './limits'
import { upgradeField } from '../catalogue/witness-offers'
import { parsePageQuery, pageBody, PAGE_SIZE } from './query'
import witnessSpec from '../../docs/witness-spec.md' with { type: 'text' }

const BEARER = /^Bearer (svc_live_[0-9a-f]{64})$/

const WITNESS_PATH = /^(?:https?:\/\/[^/]*)?\/v1\/witness\//

/**
 * Refusals made for every route before the witness routes run (a bad Host, an unknown query
 * parameter) in the witness error shape: 400 bad_request with docs (witness.md 4.3), the app's
 * code kept as `reason`.
 */
export function witnessRefusalShape(deps: Pick<WitnessDeps, 'config'>) {
  const docsUrl = `${deps.config.publicBaseUrl}/v1/witness/spec`
  return (url: string, error: ApiError): ApiError => (WITNESS_PATH.test(url) && error.status === 400 ? new ApiError(400, 'bad_request', error.message, { reason: error.errorCode, ...error.extra, docs: docsUrl }, error.headers) : error)
}

export function witnessRoutes(deps: WitnessDeps) {
  const docsUrl = `${deps.config.publicBaseUrl}/v1/witness/spec`
  const fail = (status: number, code: string, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    new ApiError(status, code, message, { docs: docsUrl, ...extra }, headers)
  const limited = (decision: RateDecision, headers: Record<string, string>) =>
    fail(429, 'RATE_LIMITED', `too many requests; retry in ${decision.retryAfterSeconds} s`, {}, { ...headers, 'retry-after': String(decision.retryAfterSeconds) })
  const storeDeps = () => ({ store: deps.witness.store, transactor: deps.transactor, signer: deps.signer, witness: deps.config.issuer, limits: deps.config.witness })

  return new Elysia({ name: 'witness' })
    .post(
      '/v1/witness/checkpoints',
      async ({ request, server }) => {
        const now = deps.clock.now()
        const authorization = request.headers.get('authorization')
        const address = clientAddress(request, deps.config.clientIpHeader, server)
        const authorized = authorization !== null
        const headers: Record<string, string> = authorized ? { 'x-ratelimit-limit': String(AUTHORIZED_RATE) } : {}
        // Counted before the body is read.
        const addressDecision = (authorized ? deps.witness.limiters.authorizedAddress : deps.witness.limiters.anonymousPost).hit(address, now)
        if (!addressDecision.allowed) throw limited(addressDecision, headers)

        // Check 1: content type, size in bytes, JSON object with exactly the two members.
        if (!jsonContentType(request.headers.get('content-type'))) throw fail(400, 'bad_request', 'Content-Type must be application/json', {}, headers)
        let bytes: Uint8Array
        try {
          bytes = await readBody(request, { limit: MAX_BODY_BYTES, timeoutMs: deps.config.bodyTimeoutMs })
        } catch (error) {
          if (!(error instanceof BodyError)) throw error
          if (error.failure === 'too_large') throw fail(400, 'bad_request', `body is over ${MAX_BODY_BYTES} bytes`, {}, headers)
          deps.log.warn('request body timed out', { path: '/v1/witness/checkpoints', timeout_ms: deps.config.bodyTimeoutMs })
          throw fail(408, 'request_timeout', 'the request body did not arrive in time; nothing was stored', {}, { ...headers, connection: 'close' })
        }
        const body = checkBody(bytes)
        if (!body.ok) throw fail(400, body.code, body.message, {}, headers)

        // Check 1.5: only with Authorization; a bad key is never treated as anonymous.
        let submitter: Submitter = { pool: 'anonymous' }
        if (authorized) {
          const key = BEARER.exec(authorization)?.[1]
          if (!key) throw fail(401, 'invalid_key', 'Authorization must be "Bearer svc_live_" followed by 64 lowercase hex characters', {}, headers)
          let account
          try {
            account = await findAccountByKey(deps.accounts, key)
          } catch {
            throw fail(503, 'witness_unavailable', 'the key store cannot answer; retry later', {}, headers)
          }
          if (!account) throw fail(401, 'invalid_key', 'the key is not recognised', {}, headers)
          if (!accountUsable(account, now)) throw fail(402, 'payment_required', `the key is ${account.status === 'active' ? 'expired' : account.status}`, {}, headers)
          if (!EVIDENCE_PLANS.includes(account.plan)) throw fail(403, 'witness_plan_required', 'the key is not an Evidence plan key', {}, headers)
          const accountDecision = deps.witness.limiters.authorizedAccount.hit(String(account.id), now)
          if (!accountDecision.allowed) throw limited(accountDecision, headers)
          submitter = { pool: 'account', accountId: account.id, plan: account.plan }
        }

        // Checks 2 to 6.
        const verified = checkSubmission(body.value)
        if (!verified.ok) throw fail(400, verified.code, verified.message, {}, headers)

        let outcome
        try {
          outcome = await submitCheckpoint(storeDeps(), verified.value, submitter, now)
        } catch (error) {
          // A stored checkpoint's repeat needs no signature; a new one fails here when no key is loaded.
          if (!deps.signer.online) throw fail(503, 'witness_unavailable', 'the witness signer is offline (no signing key is loaded); nothing was stored', {}, headers)
          deps.log.error('witness store unavailable', { error: (error as Error).message })
          throw fail(503, 'witness_unavailable', 'the witness store is unavailable; nothing was stored', {}, headers)
        }
        switch (outcome.kind) {
          case 'stored':
          case 'repeat':
            return new Response(outcome.receiptJson, { status: outcome.kind === 'stored' ? 201 : 200, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } })
          case 'anonymous_cap':
            throw fail(503, 'witness_unavailable', 'the anonymous daily cap is reached; retry after 00:00 UTC or use an Evidence plan key', upgradeField(deps.config), { ...headers, 'retry-after': String(secondsToUtcMidnight(now)) })
          case 'quota_exceeded':
            throw fail(429, 'quota_exceeded', `the account's ${outcome.quota} new checkpoints for this UTC day are used`, upgradeField(deps.config), { ...headers, 'retry-after': String(secondsToUtcMidnight(now)) })
          case 'storage_full':
            throw fail(503, 'witness_unavailable', 'the witness store is full; stored checkpoints stay readable', {}, headers)
        }
      },
      {
        parse: 'none',
        detail: {
          tags: ['witness'],
          summary: 'Submit a signed checkpoint; get a signed receipt of when the witness stored it',
          description: 'Checks run in the order of witness.md 4.1 and stop at the first failure. Optional Authorization: Bearer <Evidence plan key>.',
          requestBody: jsonBody(t.Object({ checkpoint: t.Object({ v: t.Literal('evidence.action/1'), type: t.Literal('checkpoint'), session_id: t.String(), count: t.Number({ description: 'safe integer >= 1' }), last_entry_hash: t.String(), ts: t.String(), kid: t.String(), sig: t.String() }), public_key_jwk: t.Object({ kty: t.Literal('OKP'), crv: t.Literal('Ed25519'), x: t.String() }) })),
          responses: responses({
            200: ['The stored receipt of this identity (unchanged)', t.Object({}, { additionalProperties: true })],
            201: ['A new receipt (signed fields: witness_fields of /v5/keys)', t.Object({}, { additionalProperties: true })],
            400: 'bad_request, bad_checkpoint_shape, bad_checkpoint_field, bad_jwk, kid_mismatch or bad_signature (with docs)',
            401: 'invalid_key',
            402: 'payment_required',
            403: 'witness_plan_required',
            429: 'RATE_LIMITED, or quota_exceeded with upgrade (Retry-After)',
            408: 'request_timeout: the body did not arrive within BODY_TIMEOUT_MS',
            503: 'witness_unavailable (store or key store unavailable, storage full, or the anonymous cap with upgrade)',
          }),
        },
      },
    )
    .get(
      '/v1/witness/checkpoints',
      async ({ request, server }) => {
        const now = deps.clock.now()
        const decision = deps.witness.limiters.anonymousGet.hit(clientAddress(request, deps.config.clientIpHeader, server), now)
        if (!decision.allowed) throw limited(decision, {})
        const query = parsePageQuery(new URL(request.url).searchParams)
        if (!query.ok) throw fail(400, 'bad_request', query.message)
        let rows
        try {
          rows = await deps.witness.store.page(query.kid, query.sessionId, query.after, PAGE_SIZE + 1)
        } catch (error) {
          deps.log.error('witness store unavailable', { error: (error as Error).message })
          throw fail(503, 'witness_unavailable', 'the witness store is unavailable')
        }
        return new Response(pageBody(query.kid, query.sessionId, rows), { headers: { 'content-type': 'application/json; charset=utf-8', ...rateLimitHeaders(decision) } })
      },
      {
        query: t.Object({
          kid: t.Optional(t.String({ description: 'required: 43 characters [A-Za-z0-9_-]' })),
          session_id: t.Optional(t.String({ description: 'required: 1 to 128 characters' })),
          after: t.Optional(t.String({ description: '<count>:<last_entry_hash> from next_after' })),
        }),
        detail: {
          tags: ['witness'],
          summary: 'Page through the receipts of a (kid, session_id), 500 at a time',
          responses: responses({
            200: ['Receipts ordered by (count, last_entry_hash); next_after only when more exist', t.Object({ kid: t.String(), session_id: t.String(), receipts: t.Array(t.Object({}, { additionalProperties: true })), next_after: t.Optional(t.String()) })],
            400: 'bad_request',
            429: 'RATE_LIMITED',
            503: 'witness_unavailable',
          }),
        },
      },
    )
    .get('/v1/witness/spec', () => new Response(witnessSpec, { headers: { 'content-type': 'text/markdown; charset=utf-8', 'cache-control': 'public, max-age=3600' } }), {
      detail: { tags: ['witness'], summary: 'The witness specification (witness-spec/0.5) as Markdown', responses: responses({ 200: ['Markdown', t.String(), 'text/markdown'] }) },
    })
}

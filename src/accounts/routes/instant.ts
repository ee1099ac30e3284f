// POST /v5/keys/instant {agent_id}: a free key in one call, once per agent_id; 10 per client
// address per UTC day. A repeat for the same agent_id says only that it has a key (and counts).
import { Elysia, t } from 'elysia'
import type { AccountsDeps } from '../deps'
import { badRequest } from '../../http/errors'
import { jsonBody, responses } from '../../http/openapi'
import { AllowanceExhausted } from '../self-service'
import { AGENT_ID_MAX, curlExample, INSTANT_PER_ADDRESS_PER_DAY, lostKeyOptions, upgradeUrl } from '../offers'
import { callerAddress, rateLimited, readJsonObject } from './input'

const CONTROL = /[\x00-\x1f\x7f]/

function parseAgentId(value: unknown): string {
  const agentId = typeof value === 'string' ? value.trim() : ''
  if (!agentId || [...agentId].length > AGENT_ID_MAX || CONTROL.test(agentId)) {
    throw badRequest('INVALID_AGENT_ID', `agent_id must be a string of 1 to ${AGENT_ID_MAX} characters (trimmed, no control characters)`)
  }
  return agentId
}

export function instantKeyRoutes(deps: AccountsDeps) {
  return new Elysia({ name: 'accounts-instant' }).post(
    '/v5/keys/instant',
    async ({ request, server }) => {
      const body = await readJsonObject(request, deps, 'INVALID_AGENT_ID', '{"agent_id": "…"}')
      const agentId = parseAgentId(body.agent_id)
      const now = deps.clock.now()
      const usageUrl = `${deps.config.publicBaseUrl}/v5/usage`
      let outcome
      try {
        outcome = await deps.selfService.instant(agentId, callerAddress(request, deps, server), now)
      } catch (error) {
        if (error instanceof AllowanceExhausted) throw rateLimited(`at most ${INSTANT_PER_ADDRESS_PER_DAY} instant-key answers (new keys and repeats) per client address per UTC day`, error.resetAt, now)
        throw error
      }
      if (outcome.kind === 'existing') {
        // Nothing about the existing key (not its prefix, not its plan): only that there is one
        // and how its owner gets going again. The answer took a unit of the address's allowance.
        return {
          api_key: null,
          key_exists: true,
          note: 'This agent_id already has a key. A key is shown only once, when it is made, and the service keeps only its hash, so it cannot be shown again: use the key you saved. If it is lost, get a new key as `recover` says.',
          recover: lostKeyOptions(deps.config),
        }
      }
      deps.log.info('instant key issued', { key_prefix: outcome.keyPrefix })
      return {
        api_key: outcome.key,
        key_prefix: outcome.keyPrefix,
        daily_limit: deps.config.metering.freeDailyLimit,
        plan: 'free',
        usage: { requests_today: 0, daily_limit: deps.config.metering.freeDailyLimit, usage_url: usageUrl },
        example: curlExample(deps.config, outcome.key),
        upgrade_url: upgradeUrl(deps.config),
        note: 'Save this key now: it is shown only once and the service keeps only its hash.',
      }
    },
    {
      parse: 'none',
      detail: {
        tags: ['accounts'],
        summary: 'Get a free API key in one call (one per agent_id; 10 answers per client address per UTC day)',
        requestBody: jsonBody(t.Object({ agent_id: t.String({ minLength: 1, maxLength: AGENT_ID_MAX }) })),
        responses: responses({
          200: [
            'Instant key (api_key shown once); a repeat for an agent_id that has a key answers api_key null, key_exists true and how to recover, and reveals nothing about that key',
            t.Union([
              t.Object({ api_key: t.String(), key_prefix: t.String(), daily_limit: t.Integer(), plan: t.Literal('free'), usage: t.Object({}, { additionalProperties: true }), example: t.String(), upgrade_url: t.String({ format: 'uri' }), note: t.String() }),
              t.Object({ api_key: t.Null(), key_exists: t.Literal(true), note: t.String(), recover: t.Array(t.Object({ way: t.String(), request: t.String(), note: t.String() })) }),
            ]),
          ],
          400: 'INVALID_AGENT_ID',
          429: 'RATE_LIMITED: the address has had its answers for this UTC day, repeats included (Retry-After: seconds to the next UTC midnight)',
        }),
      },
    },
  )
}

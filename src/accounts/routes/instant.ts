// POST /v5/keys/instant {agent_id}: a free key in one call, once per agent_id; 10 per client
// address per UTC day. A repeat for the same agent_id names the existing key by its prefix only.
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { badRequest } from '../../http/errors'
import { jsonBody, responses } from '../../http/openapi'
import { AllowanceExhausted } from '../self-service'
import { AGENT_ID_MAX, curlExample, INSTANT_PER_ADDRESS_PER_DAY, upgradeUrl } from '../offers'
import { callerAddress, rateLimited, readJsonObject } from './input'
import { planLimit } from '../plan-limits'

const CONTROL = /[\x00-\x1f\x7f]/

function parseAgentId(value: unknown): string {
  const agentId = typeof value === 'string' ? value.trim() : ''
  if (!agentId || [...agentId].length > AGENT_ID_MAX || CONTROL.test(agentId)) {
    throw badRequest('INVALID_AGENT_ID', `agent_id must be a string of 1 to ${AGENT_ID_MAX} characters (trimmed, no control characters)`)
  }
  return agentId
}

export function instantKeyRoutes(deps: AppDeps) {
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
        if (error instanceof AllowanceExhausted) throw rateLimited(`at most ${INSTANT_PER_ADDRESS_PER_DAY} instant keys per client address per UTC day`, error.resetAt, now)
        throw error
      }
      if (outcome.kind === 'existing') {
        // The operator may have given this agent_id to a key of another plan (keys create --agent-id).
        const limit = planLimit(outcome.plan, deps.meter.free)
        const dailyLimit = limit.kind === 'sandbox' ? limit.calls : limit.daily
        return {
          api_key: `${outcome.keyPrefix}…`,
          key_prefix: outcome.keyPrefix,
          daily_limit: dailyLimit,
          plan: outcome.plan,
          usage: { daily_limit: dailyLimit, usage_url: usageUrl },
          example: curlExample(deps.config, '<your key>'),
          upgrade_url: upgradeUrl(deps.config),
          note: 'This agent_id already has a key. A key is shown only once, when it is made; use the key you saved. Lost it? Ask for one by e-mail at /v5/keys/request.',
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
        summary: 'Get a free API key in one call (one per agent_id; 10 per client address per UTC day)',
        requestBody: jsonBody(t.Object({ agent_id: t.String({ minLength: 1, maxLength: AGENT_ID_MAX }) })),
        responses: responses({
          200: ['Instant key (api_key shown once; a repeat for the same agent_id gives the masked prefix and a note)', t.Object({ api_key: t.String(), key_prefix: t.String(), daily_limit: t.Integer(), plan: t.String({ description: "'free' for a key made here; a repeat names the existing key's plan" }), usage: t.Object({}, { additionalProperties: true }), example: t.String(), upgrade_url: t.String({ format: 'uri' }), note: t.String() })],
          400: 'INVALID_AGENT_ID',
          429: 'RATE_LIMITED (Retry-After: seconds to the next UTC midnight)',
        }),
      },
    },
  )
}

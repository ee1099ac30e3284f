// The accounts' part of POST /v5/sandbox {email, use_case?}: a sandbox key (sb_) for 7 days or
// 200 calls, whichever comes first; one per e-mail or client address per 7-day window. Also
// mailed when e-mail is configured. The route is payments' (payments/routes/sandbox.ts): with
// X-Payment it sells a credit key instead; every request without a payment comes here.
import type { SandboxKeyDeps } from './deps'
import { ApiError, badRequest } from '../http/errors'
import type { PeerSource } from '../http/client-address'
import { AllowanceExhausted } from './self-service'
import { canUpgrade, capabilities } from '../catalogue/capabilities'
import { plansOffer } from '../catalogue/pricing'
import { quickstart, SANDBOX_DAYS, upgradeUrl, USE_CASE_MAX } from './offers'
import { callerAddress, parseEmail, readJsonObject, secondsUntil } from './routes/input'

// The route describes the request body with it.
export { USE_CASE_MAX } from './offers'

function parseUseCase(value: unknown): string | null {
  if (value === undefined || value === null) return null
  if (typeof value !== 'string' || [...value].length > USE_CASE_MAX) throw badRequest('INVALID_USE_CASE', `use_case must be a string of at most ${USE_CASE_MAX} characters`)
  return value.trim() || null
}

/** Reads the body, issues the key (400 on bad input, 429 SANDBOX_LIMIT_REACHED when the allowance is used) and gives the answer. */
export async function requestSandboxKey(deps: SandboxKeyDeps, request: Request, server: PeerSource | null) {
  const body = await readJsonObject(request, deps, 'INVALID_EMAIL', '{"email": "…", "use_case": "…"}')
  const email = parseEmail(body.email)
  if (!email) throw badRequest('INVALID_EMAIL', body.email === undefined ? 'email is required' : 'email must be an e-mail address')
  const useCase = parseUseCase(body.use_case)
  const now = deps.clock.now()
  let issued
  try {
    issued = await deps.selfService.sandbox(email, useCase, callerAddress(request, deps, server), now, deps.mail.configured)
  } catch (error) {
    if (!(error instanceof AllowanceExhausted)) throw error
    throw new ApiError(
      429,
      'SANDBOX_LIMIT_REACHED',
      `one sandbox key per e-mail address or client address per ${SANDBOX_DAYS} days; get a free key at /v5/keys/instant${canUpgrade(capabilities(deps.config)) ? ' or upgrade' : ''}`,
      { upgrade_url: upgradeUrl(deps.config), plans: plansOffer(deps.config), retry_at: new Date(error.resetAt).toISOString() },
      { 'retry-after': String(secondsUntil(error.resetAt, now)) },
    )
  }
  if (issued.mailId !== null) deps.mail.wake()
  deps.log.info('sandbox key issued', { key_prefix: issued.keyPrefix, mailed: issued.mailId !== null })
  return {
    api_key: issued.key,
    key_prefix: issued.keyPrefix,
    tier: 'sandbox',
    email_captured: true,
    email_sent: issued.mailId !== null,
    expires_at: issued.expiresAt,
    calls_remaining: issued.callsRemaining,
    upgrade_url: upgradeUrl(deps.config),
    quickstart: quickstart(deps.config, issued.key),
  }
}

// Background work of the accounts domain: the mail job, and an hourly sweep of allowance windows
// that have ended (every self-service window lasts at most 7 days).
import type { AccountJobDeps } from './deps'
import { DAY_MS } from './limits'
import { SANDBOX_DAYS } from './offers'

const SWEEP_MS = 3_600_000

export function startAccountJobs(deps: AccountJobDeps): () => Promise<void> {
  const stopMail = deps.mail.start()
  if (!deps.mail.configured) deps.log.warn('e-mail not configured (SMTP_URL): /v5/keys/request answers 503, sandbox keys are not mailed, bought keys wait in the outbox')
  const sweep = () =>
    deps.selfService.limits.prune(deps.clock.now() - (SANDBOX_DAYS + 1) * DAY_MS).catch((error: Error) => {
      deps.log.warn('allowance sweep failed', { error: error.message })
      return 0
    })
  void sweep()
  const timer = setInterval(() => void sweep(), SWEEP_MS)
  return async () => {
    clearInterval(timer)
    await stopMail()
  }
}

// `openbell mail status`: the outbox counts (queued, sent, failed) and the oldest queued message's
// age. It never prints recipients, bodies or keys.
import type { Config } from '../config'
import type { MailOutbox } from '../accounts/mail/outbox'
import { mailConfigured } from '../accounts/mail/transport'

const USAGE = 'usage: openbell mail status'

export async function runMailCommand(args: string[], outbox: Pick<MailOutbox, 'counts' | 'oldestQueuedAt'>, config: Pick<Config, 'mail'>, now: number, out: (line: string) => void): Promise<number> {
  if (args.length !== 1 || args[0] !== 'status') {
    out(USAGE)
    return 2
  }
  const counts = await outbox.counts()
  const oldest = await outbox.oldestQueuedAt()
  out(`e-mail: ${mailConfigured(config.mail) ? 'configured' : 'not configured in this environment (SMTP_URL unset): queued mail waits for a service that has it'}`)
  out(`queued: ${counts.queued}`)
  out(`sent: ${counts.sent}`)
  out(`failed: ${counts.failed}`)
  if (oldest) out(`oldest queued: ${oldest} (${Math.max(0, Math.round((now - Date.parse(oldest)) / 60_000))} min ago)`)
  return 0
}

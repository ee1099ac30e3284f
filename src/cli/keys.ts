// `openbell keys create|list|suspend|resume|cancel`: operator management of API keys. One verb per
// status change; `activate` is kept as another name for `resume`. Prints a new key once; listings
// show only prefixes.
import { parseArgs } from 'node:util'
import { PLANS, ACCOUNT_STATUSES, type AccountStatus, type KeyClass, type Plan } from '../catalogue/plans'
import { issueKey } from '../accounts/keys'
import type { AccountStore } from '../accounts/store'
import type { UsageStore } from '../accounts/usage-store'

/** The status each verb sets; `activate` is an alias of `resume` (KEY_VERB_ALIASES). */
export const KEY_STATUS_VERBS = { suspend: 'suspended', resume: 'active', cancel: 'cancelled' } as const satisfies Record<string, AccountStatus>
export const KEY_VERB_ALIASES: Record<string, keyof typeof KEY_STATUS_VERBS> = { activate: 'resume' }
const STATUS_VERBS = Object.keys(KEY_STATUS_VERBS).join('|')
const ALIASES = Object.entries(KEY_VERB_ALIASES).map(([alias, verb]) => `${alias} is another name for ${verb}`).join('; ')

/** The one-line synopsis `openbell --help` shows for this command. */
export const KEYS_SYNOPSIS = `keys create|list|${STATUS_VERBS} …   manage API keys (${ALIASES})`

const USAGE = `usage:
  openbell keys create --plan <${PLANS.join('|')}> [--credit] [--email E] [--agent-id A] [--expires-in-days N] [--calls N] [--credits N]
  openbell keys list
  openbell keys ${STATUS_VERBS} <key prefix shown by list>   (${ALIASES})`

/** `usage`: stored request counts (a running service writes them within a second). */
export async function runKeysCommand(args: string[], store: AccountStore, now: Date, out: (line: string) => void, usage?: UsageStore): Promise<number> {
  const [sub, ...rest] = args
  try {
    if (sub === 'create') return await create(rest, store, now, out)
    if (sub === 'list') return await list(store, out, usage ? await usage.onDay(now.toISOString().slice(0, 10)) : null)
    const verb = sub && (KEY_VERB_ALIASES[sub] ?? (sub in KEY_STATUS_VERBS ? (sub as keyof typeof KEY_STATUS_VERBS) : null))
    if (verb) return await setStatus(rest[0], KEY_STATUS_VERBS[verb], store, out)
  } catch (error) {
    out(`error: ${(error as Error).message}`)
    return 2
  }
  out(USAGE)
  return 2
}

async function create(args: string[], store: AccountStore, now: Date, out: (line: string) => void): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      plan: { type: 'string' },
      credit: { type: 'boolean', default: false },
      email: { type: 'string' },
      'agent-id': { type: 'string' },
      'expires-in-days': { type: 'string' },
      calls: { type: 'string' },
      credits: { type: 'string' },
    },
    strict: true,
  })
  const plan = values.plan as Plan | undefined
  if (!plan || !PLANS.includes(plan)) throw new Error(`--plan must be one of ${PLANS.join(', ')}`)
  const count = (name: string, text: string | undefined) => {
    if (text === undefined) return undefined
    if (!/^\d+$/.test(text)) throw new Error(`--${name} must be a whole number`)
    return Number(text)
  }
  const days = count('expires-in-days', values['expires-in-days'])
  const keyClass: KeyClass | undefined = values.credit ? 'credit' : undefined
  const { key, account } = await issueKey(store, {
    plan,
    keyClass,
    now,
    expiresAt: days === undefined ? null : new Date(now.getTime() + days * 86_400_000).toISOString(),
    callsRemaining: count('calls', values.calls) ?? null,
    creditBalance: count('credits', values.credits) ?? 0,
    email: values.email ?? null,
    agentId: values['agent-id'] ?? null,
  })
  out(key)
  out(`created ${account.key_prefix}… plan ${account.plan} (${account.class}); the key is shown once, store it now`)
  return 0
}

async function list(store: AccountStore, out: (line: string) => void, today: Map<number, number> | null): Promise<number> {
  const rows = await store.list()
  out(['prefix', 'class', 'plan', 'status', 'created_at', 'expires_at', 'today'].join('\t'))
  for (const row of rows) out([`${row.key_prefix}…`, row.class, row.plan, row.status, row.created_at, row.expires_at ?? '-', today ? String(today.get(row.id) ?? 0) : '-'].join('\t'))
  return 0
}

async function setStatus(prefix: string | undefined, status: AccountStatus, store: AccountStore, out: (line: string) => void): Promise<number> {
  if (!prefix || prefix.replace(/…$/, '').length < 8) throw new Error('give the key prefix shown by `keys list` (at least 8 characters)')
  if (!ACCOUNT_STATUSES.includes(status)) throw new Error('unknown status')
  const matches = await store.findByPrefix(prefix.replace(/…$/, ''))
  if (matches.length !== 1) {
    out(matches.length ? `error: ${matches.length} keys match ${prefix}; give more characters` : `error: no key matches ${prefix}`)
    return 1
  }
  await store.setStatus(matches[0]!.id, status)
  out(`${matches[0]!.key_prefix}… is now ${status}`)
  return 0
}

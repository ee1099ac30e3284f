// Keys anyone can get: instant (per agent_id), e-mailed, sandbox. Each request is one unit of
// work: the allowance is taken, the key row, its funnel event and (where it is mailed) the outbox
// message are written, and all of it commits before the answer, or none of it. Every decision in
// these bodies is one conditional statement (the allowance take, the agent_id insert), so they run
// at READ COMMITTED on PostgreSQL: exact across nodes, and a burst from one address waits on its
// allowance row in turn instead of failing serialization checks.
import { randomBytes } from 'node:crypto'
import type { Config } from '../config'
import type { Step, Transactor } from '../store/transaction'
import { sha256Hex } from '../crypto/hash'
import { displayPrefix, hashKey } from './keys'
import { KEY_CLASSES, type KeyClass, type Plan } from '../catalogue/plans'
import { DAY_MS, takeSliding, utcDayStart, type Allowance } from './limits'
import { funnelOf, type KeyChannel } from './events'
import type { MailOutbox } from './mail/outbox'
import type { SelfServiceStore } from './self-service-store'
import { freeKeyMail, sandboxKeyMail, EMAIL_KEYS_PER_ADDRESS, EMAIL_KEY_WINDOW_HOURS, INSTANT_PER_ADDRESS_PER_DAY, SANDBOX_CALLS, SANDBOX_DAYS, SANDBOX_PER_WINDOW } from './offers'

/** An allowance was used up; `resetAt` is when it opens again (epoch ms). */
export class AllowanceExhausted extends Error {
  constructor(
    readonly scope: string,
    readonly resetAt: number,
  ) {
    super(`allowance ${scope} used up`)
    this.name = 'AllowanceExhausted'
  }
}

/** Another request gave the agent_id a key between our look-up and our insert (undoes the unit). */
class AgentIdTaken extends Error {}

/** `existing`: the agent_id has a key; nothing about that key is told (its owner has it). */
export type InstantOutcome = { kind: 'issued'; key: string; keyPrefix: string } | { kind: 'existing' }

/** Recipient addresses are limited by a hash of the lower-cased address, not the address. */
const recipientSubject = (email: string) => sha256Hex(email.toLowerCase())

export interface SelfServiceParts {
  store: SelfServiceStore
  outbox: Pick<MailOutbox, 'enqueue'>
  transactor: Transactor
  config: Config
}

const CONDITIONAL = { isolation: 'read committed' } as const

export function selfServiceKeys({ store, outbox, transactor, config }: SelfServiceParts) {
  function* newKey(keyClass: KeyClass, plan: Plan, now: number, extra: { expiresAt?: string; callsRemaining?: number; agentId?: string; email?: string; useCase?: string | null }, channel: KeyChannel): Step<{ key: string; keyPrefix: string } | null> {
    const key = KEY_CLASSES[keyClass] + randomBytes(32).toString('hex')
    const keyPrefix = displayPrefix(key)
    const createdAt = new Date(now).toISOString()
    const id = yield* store.insertKey({ keyHash: hashKey(key), keyPrefix, keyClass, plan, createdAt, expiresAt: extra.expiresAt ?? null, callsRemaining: extra.callsRemaining ?? null, agentId: extra.agentId ?? null, email: extra.email ?? null })
    if (id === null) return null
    yield* store.recordEvent(id, channel, createdAt, extra.useCase ?? null)
    return { key, keyPrefix }
  }

  function* take(allowance: Allowance, now: number): Step<void> {
    const result = yield* store.takeAllowance(allowance, now)
    if (!result.ok) throw new AllowanceExhausted(allowance.scope, result.resetAt)
  }

  function* takeSlidingOrThrow(allowance: Omit<Allowance, 'windowStart'>, now: number): Step<void> {
    const result = yield* takeSliding(store.takeAllowance, allowance, now)
    if (!result.ok) throw new AllowanceExhausted(allowance.scope, result.resetAt)
  }

  return {
    limits: {
      /** Removes allowance windows that started before `before`. */
      prune: (before: number) => store.pruneAllowances(before),
    },
    events: {
      funnel: (date: string, usedElsewhere: (keyHash: string) => Promise<boolean>) => funnelOf(store, date, usedElsewhere),
    },

    /**
     * A free key for an agent_id, once. Every answer takes a unit of the address's allowance,
     * a repeat for an agent_id that has a key too (so the endpoint cannot be asked without limit
     * whether an agent_id exists); a repeat creates nothing.
     */
    async instant(agentId: string, address: string, now: number): Promise<InstantOutcome> {
      const attempt = () =>
        transactor.run(function* (): Step<InstantOutcome> {
          yield* take({ scope: 'instant', subject: address, limit: INSTANT_PER_ADDRESS_PER_DAY, windowStart: utcDayStart(now), windowMs: DAY_MS }, now)
          if (yield* store.keyOfAgent(agentId)) return { kind: 'existing' }
          const issued = yield* newKey('free', 'free', now, { agentId }, 'instant')
          if (!issued) throw new AgentIdTaken()
          return { kind: 'issued', ...issued }
        }, { name: 'instant-key', ...CONDITIONAL })
      try {
        return await attempt()
      } catch (error) {
        if (!(error instanceof AgentIdTaken)) throw error
        // Rolled back (the unit too): once more, which answers the repeat and counts it.
        return attempt()
      }
    },

    /** A free key that only the e-mail carries; the message is queued with it. */
    emailed(email: string, address: string, now: number): Promise<{ keyPrefix: string; mailId: number }> {
      return transactor.run(function* () {
        // A sliding window: never more than the limit in any 24 hours.
        const window = { limit: EMAIL_KEYS_PER_ADDRESS, windowMs: EMAIL_KEY_WINDOW_HOURS * 3_600_000 }
        yield* takeSlidingOrThrow({ scope: 'email', subject: address, ...window }, now)
        yield* takeSlidingOrThrow({ scope: 'email_to', subject: recipientSubject(email), ...window }, now)
        const { key, keyPrefix } = (yield* newKey('free', 'free', now, { email }, 'email'))!
        const mailId = yield* outbox.enqueue({ to: email, ...freeKeyMail(config, key) }, now)
        return { keyPrefix, mailId }
      }, { name: 'email-key', ...CONDITIONAL })
    },

    /** A sandbox key: 7 days or 200 calls. Mailed as well when `mail` is true. */
    sandbox(email: string, useCase: string | null, address: string, now: number, mail: boolean): Promise<{ key: string; keyPrefix: string; expiresAt: string; callsRemaining: number; mailId: number | null }> {
      return transactor.run(function* () {
        const window = { limit: SANDBOX_PER_WINDOW, windowStart: now, windowMs: SANDBOX_DAYS * DAY_MS }
        yield* take({ scope: 'sandbox', subject: address, ...window }, now)
        yield* take({ scope: 'sandbox_email', subject: recipientSubject(email), ...window }, now)
        const expiresAt = new Date(now + SANDBOX_DAYS * DAY_MS).toISOString()
        const issued = (yield* newKey('sandbox', 'sandbox', now, { email, expiresAt, callsRemaining: SANDBOX_CALLS, useCase }, 'sandbox'))!
        const mailId = mail ? yield* outbox.enqueue({ to: email, ...sandboxKeyMail(config, issued.key, expiresAt) }, now) : null
        return { ...issued, expiresAt, callsRemaining: SANDBOX_CALLS, mailId }
      }, { name: 'sandbox-key', ...CONDITIONAL })
    },
  }
}

export type SelfServiceKeys = ReturnType<typeof selfServiceKeys>

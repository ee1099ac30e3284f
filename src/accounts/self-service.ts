// Keys anyone can get: instant (per agent_id), e-mailed, sandbox. Each request is one immediate
// SQLite transaction: the allowance is taken, the key row, its funnel event and (where it is
// mailed) the outbox message are written, and all of it commits before the answer, or none of it.
import type { Database } from 'bun:sqlite'
import { randomBytes } from 'node:crypto'
import type { Config } from '../config'
import { sha256Hex } from '../crypto/hash'
import { displayPrefix, hashKey } from './keys'
import { KEY_CLASSES, type KeyClass, type Plan } from './plans'
import { addressLimits, DAY_MS, utcDayStart, type Allowance } from './limits'
import { keyEvents, type KeyChannel } from './events'
import { enqueueMail } from './mail/outbox'
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

/** `existing`: the agent_id has a key; nothing about that key is told (its owner has it). */
export type InstantOutcome = { kind: 'issued'; key: string; keyPrefix: string } | { kind: 'existing' }

const isUniqueViolation = (error: unknown) => error instanceof Error && /UNIQUE constraint failed: api_keys\.agent_id/.test(error.message)

/** Recipient addresses are limited by a hash of the lower-cased address, not the address. */
const recipientSubject = (email: string) => sha256Hex(email.toLowerCase())

export function selfServiceKeys(db: Database, config: Config) {
  const limits = addressLimits(db)
  const events = keyEvents(db)
  const insertKey = db.query(
    `INSERT INTO api_keys (key_hash, key_prefix, class, plan, created_at, expires_at, calls_remaining, agent_id, email)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  )
  const hasAgent = db.query('SELECT 1 AS found FROM api_keys WHERE agent_id = ?')

  const newKey = (keyClass: KeyClass, plan: Plan, now: number, extra: { expiresAt?: string; callsRemaining?: number; agentId?: string; email?: string; useCase?: string | null }, channel: KeyChannel) => {
    const key = KEY_CLASSES[keyClass] + randomBytes(32).toString('hex')
    const keyPrefix = displayPrefix(key)
    const row = insertKey.get(hashKey(key), keyPrefix, keyClass, plan, new Date(now).toISOString(), extra.expiresAt ?? null, extra.callsRemaining ?? null, extra.agentId ?? null, extra.email ?? null) as { id: number }
    events.record(row.id, channel, now, extra.useCase ?? null)
    return { key, keyPrefix }
  }

  const take = (allowance: Allowance, now: number) => {
    const result = limits.take(allowance, now)
    if (!result.ok) throw new AllowanceExhausted(allowance.scope, result.resetAt)
  }
  const takeSliding = (allowance: Omit<Allowance, 'windowStart'>, now: number) => {
    const result = limits.takeSliding(allowance, now)
    if (!result.ok) throw new AllowanceExhausted(allowance.scope, result.resetAt)
  }

  return {
    limits,
    events,

    /**
     * A free key for an agent_id, once. Every answer takes a unit of the address's allowance,
     * a repeat for an agent_id that has a key too (so the endpoint cannot be asked without limit
     * whether an agent_id exists); a repeat creates nothing.
     */
    instant(agentId: string, address: string, now: number): InstantOutcome {
      const run = db.transaction((): InstantOutcome => {
        take({ scope: 'instant', subject: address, limit: INSTANT_PER_ADDRESS_PER_DAY, windowStart: utcDayStart(now), windowMs: DAY_MS }, now)
        if (hasAgent.get(agentId)) return { kind: 'existing' }
        return { kind: 'issued', ...newKey('free', 'free', now, { agentId }, 'instant') }
      })
      try {
        return run.immediate()
      } catch (error) {
        // Another process inserted the same agent_id between our read and our insert: that
        // attempt rolled back (its unit too); run again, which answers the repeat and counts it.
        if (!isUniqueViolation(error)) throw error
        return run.immediate()
      }
    },

    /** A free key that only the e-mail carries; the message is queued with it. */
    emailed(email: string, address: string, now: number): { keyPrefix: string; mailId: number } {
      return db
        .transaction(() => {
          // A sliding window: never more than the limit in any 24 hours.
          const window = { limit: EMAIL_KEYS_PER_ADDRESS, windowMs: EMAIL_KEY_WINDOW_HOURS * 3_600_000 }
          takeSliding({ scope: 'email', subject: address, ...window }, now)
          takeSliding({ scope: 'email_to', subject: recipientSubject(email), ...window }, now)
          const { key, keyPrefix } = newKey('free', 'free', now, { email }, 'email')
          const mailId = enqueueMail(db, { to: email, ...freeKeyMail(config, key) }, now)
          return { keyPrefix, mailId }
        })
        .immediate()
    },

    /** A sandbox key: 7 days or 200 calls. Mailed as well when `mail` is true. */
    sandbox(email: string, useCase: string | null, address: string, now: number, mail: boolean): { key: string; keyPrefix: string; expiresAt: string; callsRemaining: number; mailId: number | null } {
      return db
        .transaction(() => {
          const window = { limit: SANDBOX_PER_WINDOW, windowStart: now, windowMs: SANDBOX_DAYS * DAY_MS }
          take({ scope: 'sandbox', subject: address, ...window }, now)
          take({ scope: 'sandbox_email', subject: recipientSubject(email), ...window }, now)
          const expiresAt = new Date(now + SANDBOX_DAYS * DAY_MS).toISOString()
          const issued = newKey('sandbox', 'sandbox', now, { email, expiresAt, callsRemaining: SANDBOX_CALLS, useCase }, 'sandbox')
          const mailId = mail ? enqueueMail(db, { to: email, ...sandboxKeyMail(config, issued.key, expiresAt) }, now) : null
          return { ...issued, expiresAt, callsRemaining: SANDBOX_CALLS, mailId }
        })
        .immediate()
    },
  }
}

export type SelfServiceKeys = ReturnType<typeof selfServiceKeys>

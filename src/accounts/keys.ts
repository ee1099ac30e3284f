// Issuing and resolving API keys.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { sha256, sha256Hex } from '../crypto/hash'
import { bytesToHex } from '../crypto/encoding'
import { API_KEY_PATTERN, KEY_CLASSES, defaultClassForPlan, type KeyClass, type Plan } from '../catalogue/plans'
import type { AccountRow, AccountStore } from './store'

/** Shown in listings and logs: the class prefix and the first 8 hex characters. */
export function displayPrefix(key: string): string {
  const prefix = Object.values(KEY_CLASSES).find((p) => key.startsWith(p)) ?? ''
  return key.slice(0, prefix.length + 8)
}

export function hashKey(key: string): string {
  return sha256Hex(key)
}

export interface IssueKeyOptions {
  plan: Plan
  keyClass?: KeyClass
  now: Date
  expiresAt?: string | null
  callsRemaining?: number | null
  agentId?: string | null
  email?: string | null
  creditBalance?: number
}

export async function issueKey(store: AccountStore, options: IssueKeyOptions): Promise<{ key: string; account: AccountRow }> {
  const keyClass = options.keyClass ?? defaultClassForPlan(options.plan)
  const key = KEY_CLASSES[keyClass] + randomBytes(32).toString('hex')
  const account = await store.insert({
    key_hash: hashKey(key),
    key_prefix: displayPrefix(key),
    class: keyClass,
    plan: options.plan,
    created_at: options.now.toISOString(),
    expires_at: options.expiresAt ?? null,
    calls_remaining: options.callsRemaining ?? null,
    agent_id: options.agentId ?? null,
    email: options.email ?? null,
    credit_balance: options.creditBalance ?? 0,
  })
  return { key, account }
}

/**
 * The account a presented key names, or null. Malformed keys are refused before any lookup;
 * the stored hash is compared in constant time after the indexed lookup.
 */
export async function findAccountByKey(store: AccountStore, key: string): Promise<AccountRow | null> {
  if (!API_KEY_PATTERN.test(key)) return null
  const digest = sha256(key)
  const account = await store.findByHash(bytesToHex(digest))
  if (!account) return null
  return timingSafeEqual(Buffer.from(account.key_hash, 'hex'), digest) ? account : null
}

/** An account may use the API: active and not past its expiry. */
export function accountUsable(account: AccountRow, now: number): boolean {
  if (account.status !== 'active') return false
  return account.expires_at === null || Date.parse(account.expires_at) > now
}

// Key classes and plans. The class is fixed by the key's prefix; the plan says what it may do.

export const KEY_CLASSES = {
  free: 'svc_free_',
  sandbox: 'sb_',
  credit: 'svc_crd_',
  paid: 'svc_live_',
} as const

export type KeyClass = keyof typeof KEY_CLASSES

export const PLANS = ['free', 'sandbox', 'builder', 'pro', 'evidence_starter', 'evidence'] as const
export type Plan = (typeof PLANS)[number]

export const ACCOUNT_STATUSES = ['active', 'suspended', 'cancelled'] as const
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number]

export const EVIDENCE_PLANS: readonly Plan[] = ['evidence_starter', 'evidence']

/** The class a new key of this plan gets, unless the caller asks for the credit class. */
export function defaultClassForPlan(plan: Plan): KeyClass {
  if (plan === 'free') return 'free'
  if (plan === 'sandbox') return 'sandbox'
  return 'paid'
}

const CLASS_PREFIXES = Object.entries(KEY_CLASSES) as [KeyClass, string][]

export function classOfKey(key: string): KeyClass | null {
  for (const [keyClass, prefix] of CLASS_PREFIXES) {
    if (key.startsWith(prefix)) return keyClass
  }
  return null
}

/** Keys are the class prefix and 64 lowercase hex characters. */
export const API_KEY_PATTERN = /^(svc_free_|sb_|svc_crd_|svc_live_)[0-9a-f]{64}$/

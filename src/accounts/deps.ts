// What the accounts domain's functions take: a few named members each, so a signature says which
// services it touches. The entry points other domains call (key check, metering, bearer tokens,
// the sandbox key) have their own small types; the routes take AccountsDeps. Types only: a full
// set of the app's dependencies satisfies each of them.
import type { Config } from '../config'
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { AccountStore } from './store'
import type { Meter } from './metering'
import type { TokenStore } from './tokens'
import type { MailWorker } from './mail/worker'
import type { SelfServiceKeys } from './self-service'
import type { AuditLog } from '../audit/log'

/** Resolving a presented key (key-check.ts): the cached key store. */
export interface KeyCheckDeps {
  config: Config
  clock: Clock
  accounts: AccountStore
}

/** Counting a keyed request or refusing it (meter-answer.ts), and the usage report. */
export interface MeterDeps {
  config: Config
  clock: Clock
  /** Per-key request metering and limits of /v5/status, /v5/batch and the tool endpoint (written behind once a second). */
  meter: Meter
}

/** Resolving an OAuth bearer token (bearer.ts). */
export interface BearerDeps {
  config: Config
  clock: Clock
  /** Hashed OAuth client-credentials tokens (POST /oauth/token, resolveBearer). */
  tokens: TokenStore
}

/** The self-service keys: instant, e-mailed and sandbox (sandbox-key.ts, answered by payments' /v5/sandbox too). */
export interface SandboxKeyDeps {
  config: Config
  clock: Clock
  log: Logger
  /** Instant, e-mailed and sandbox keys; per-address allowances; funnel events. */
  selfService: SelfServiceKeys
  /** The mail job over the durable outbox (sends only when SMTP_URL is set). */
  mail: MailWorker
}

/** The account surfaces (routes/): keys, usage, OAuth, pricing and the funnel. */
export interface AccountsDeps extends KeyCheckDeps, MeterDeps, BearerDeps, SandboxKeyDeps {
  /** The funnel counts a key converted when the audit log holds a receipt it paid for. */
  audit: AuditLog
}

/** The accounts' background jobs (jobs.ts): the mail job and the allowance sweep. */
export type AccountJobDeps = Pick<SandboxKeyDeps, 'clock' | 'log' | 'selfService' | 'mail'>

// The ordered list of schema migrations. The SQL lives with each domain's store; the order lives
// here so that numbers never collide. Append only: never edit or renumber a released migration.
import type { Migration } from './migrate'
import { ACCOUNTS_SCHEMA_V1 } from '../accounts/store'
import { OVERRIDES_SCHEMA_V1 } from '../market/overrides/store'
import { AUDIT_SCHEMA_V1, AUDIT_SCHEMA_V10 } from '../audit/store'
import { WITNESS_SCHEMA_V1 } from '../witness/store'
import { MCP_SCHEMA_V1 } from '../mcp/store'
import { PAYMENTS_SCHEMA_V1, PAYMENTS_SCHEMA_V28 } from '../payments/store'
import { CREDIT_LEDGER_SCHEMA_V1 } from '../payments/credits'
import { PADDLE_SCHEMA_V1, PADDLE_SCHEMA_V29 } from '../payments/paddle/store'
import { INSTALLATION_SCHEMA_V1 } from '../discovery/installation'
import { SELF_SERVICE_SCHEMA_V5 } from '../accounts/self-service-schema'
import { MAIL_SCHEMA_V6 } from '../accounts/mail/outbox'
import { KEY_USAGE_SCHEMA_V8 } from '../accounts/usage-store'
import { OAUTH_TOKENS_SCHEMA_V7 } from '../accounts/tokens'
import { DELIVERY_SCHEMA_V15 } from '../delivery/webhooks/store'

export const MIGRATIONS: readonly Migration[] = [
  { id: 1, name: 'accounts: api_keys', sql: ACCOUNTS_SCHEMA_V1 },
  { id: 2, name: 'market: overrides and override_events', sql: OVERRIDES_SCHEMA_V1 },
  { id: 3, name: 'audit: receipt_log', sql: AUDIT_SCHEMA_V1 },
  { id: 4, name: 'witness: witness_checkpoints', sql: WITNESS_SCHEMA_V1 },
  { id: 5, name: 'accounts: one key per agent_id, address_limits, key_events', sql: SELF_SERVICE_SCHEMA_V5 },
  { id: 6, name: 'accounts: mail_outbox', sql: MAIL_SCHEMA_V6 },
  { id: 7, name: 'accounts: oauth_tokens (hashed client-credentials tokens)', sql: OAUTH_TOKENS_SCHEMA_V7 },
  { id: 8, name: 'accounts: key_usage (requests per key and UTC day)', sql: KEY_USAGE_SCHEMA_V8 },
  { id: 10, name: 'audit: audit_log (group commit), audit_digests, audit_leaves, audit_state; receipt_log moved in', sql: AUDIT_SCHEMA_V10 },
  { id: 15, name: 'delivery: webhooks, webhook_mics, webhook_state, webhook_deliveries (durable queue), webhook_dispatcher', sql: DELIVERY_SCHEMA_V15 },
  { id: 20, name: 'discovery: installation (first start)', sql: INSTALLATION_SCHEMA_V1 },
  { id: 25, name: 'payments: spent payment proofs', sql: PAYMENTS_SCHEMA_V1 },
  { id: 26, name: 'payments: credit ledger', sql: CREDIT_LEDGER_SCHEMA_V1 },
  { id: 27, name: 'payments: billing-provider events, transactions and subscriptions', sql: PADDLE_SCHEMA_V1 },
  { id: 28, name: 'payments: a claimed per-request payment may be released unspent', sql: PAYMENTS_SCHEMA_V28 },
  { id: 29, name: 'payments: the plan of each billing-provider subscription and when it was set', sql: PADDLE_SCHEMA_V29 },
  { id: 30, name: 'mcp: usage and anonymous allowance', sql: MCP_SCHEMA_V1 },
]

// The ordered list of schema migrations, one list for both backends: `sql` for SQLite, `postgres`
// for PostgreSQL (the same tables; '' where a migration has nothing to do there). The SQL lives
// with each domain's store; the order lives here so that numbers never collide. Append only:
// never edit or renumber a released migration.
import type { Migration } from './migrate'
import { ACCOUNTS_SCHEMA_V1 } from '../accounts/store'
import { OVERRIDES_SCHEMA_V1 } from '../market/overrides/store'
import { AUDIT_SCHEMA_V1, AUDIT_SCHEMA_V10, AUDIT_SCHEMA_V11 } from '../audit/schema'
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
import { DELIVERY_SCHEMA_V41 } from '../delivery/webhooks/queue'
import { STREAMS_SCHEMA_V42 } from '../delivery/stream/registry'
import { STORE_SCHEMA_V40, STORE_SCHEMA_V40_POSTGRES } from './schema'
import { HALTS_SCHEMA_V50, HALTS_SCHEMA_V50_POSTGRES } from '../market/halts/store'
import { ACCOUNTS_SCHEMA_V1_POSTGRES, SELF_SERVICE_SCHEMA_V5_POSTGRES, MAIL_SCHEMA_V6_POSTGRES, OAUTH_TOKENS_SCHEMA_V7_POSTGRES, KEY_USAGE_SCHEMA_V8_POSTGRES } from '../accounts/schema-postgres'
import { OVERRIDES_SCHEMA_V2_POSTGRES } from '../market/overrides/schema-postgres'
import { AUDIT_SCHEMA_V10_POSTGRES, AUDIT_SCHEMA_V11_POSTGRES } from '../audit/schema-postgres'
import { AUDIT_APPEND_V12_POSTGRES } from '../audit/append-postgres'
import { WITNESS_SCHEMA_V4_POSTGRES, TLOG_WITNESS_SCHEMA_V61_POSTGRES } from '../witness/schema-postgres'
import { TLOG_WITNESS_SCHEMA_V61 } from '../witness/tlog/store'
import { DELIVERY_SCHEMA_V15_POSTGRES, DELIVERY_SCHEMA_V41_POSTGRES, STREAMS_SCHEMA_V42_POSTGRES } from '../delivery/webhooks/schema-postgres'
import { INSTALLATION_SCHEMA_V20_POSTGRES } from '../discovery/installation-postgres'
import { PAYMENTS_SCHEMA_V25_POSTGRES, CREDIT_LEDGER_SCHEMA_V26_POSTGRES, PADDLE_SCHEMA_V27_POSTGRES, PAYMENTS_SCHEMA_V28_POSTGRES, PADDLE_SCHEMA_V29_POSTGRES } from '../payments/schema-postgres'
import { MCP_SCHEMA_V30_POSTGRES } from '../mcp/schema-postgres'
import { TRANSPARENCY_SCHEMA_V60 } from '../transparency/store'
import { TRANSPARENCY_SCHEMA_V60_POSTGRES } from '../transparency/schema-postgres'

export const MIGRATIONS: readonly Migration[] = [
  { id: 1, name: 'accounts: api_keys', sql: ACCOUNTS_SCHEMA_V1, postgres: ACCOUNTS_SCHEMA_V1_POSTGRES },
  { id: 2, name: 'market: overrides and override_events', sql: OVERRIDES_SCHEMA_V1, postgres: OVERRIDES_SCHEMA_V2_POSTGRES },
  { id: 3, name: 'audit: receipt_log', sql: AUDIT_SCHEMA_V1, postgres: '' /* receipt_log: superseded by 10 before PostgreSQL support */ },
  { id: 4, name: 'witness: witness_checkpoints', sql: WITNESS_SCHEMA_V1, postgres: WITNESS_SCHEMA_V4_POSTGRES },
  { id: 5, name: 'accounts: one key per agent_id, address_limits, key_events', sql: SELF_SERVICE_SCHEMA_V5, postgres: SELF_SERVICE_SCHEMA_V5_POSTGRES },
  { id: 6, name: 'accounts: mail_outbox', sql: MAIL_SCHEMA_V6, postgres: MAIL_SCHEMA_V6_POSTGRES },
  { id: 7, name: 'accounts: oauth_tokens (hashed client-credentials tokens)', sql: OAUTH_TOKENS_SCHEMA_V7, postgres: OAUTH_TOKENS_SCHEMA_V7_POSTGRES },
  { id: 8, name: 'accounts: key_usage (requests per key and UTC day)', sql: KEY_USAGE_SCHEMA_V8, postgres: KEY_USAGE_SCHEMA_V8_POSTGRES },
  { id: 10, name: 'audit: audit_log (group commit), audit_digests, audit_leaves, audit_state; receipt_log moved in', sql: AUDIT_SCHEMA_V10, postgres: AUDIT_SCHEMA_V10_POSTGRES },
  { id: 11, name: 'audit: audit_leaf_runs, audit_leaf_buckets (the leaf index of days sealed from now on; audit_leaves kept for the days before)', sql: AUDIT_SCHEMA_V11, postgres: AUDIT_SCHEMA_V11_POSTGRES },
  { id: 12, name: 'audit: the batch append parses its rows once (PostgreSQL)', sql: 'SELECT 1' /* nothing to do on SQLite */, postgres: AUDIT_APPEND_V12_POSTGRES },
  { id: 15, name: 'delivery: webhooks, webhook_mics, webhook_state, webhook_deliveries (durable queue), webhook_dispatcher', sql: DELIVERY_SCHEMA_V15, postgres: DELIVERY_SCHEMA_V15_POSTGRES },
  { id: 20, name: 'discovery: installation (first start)', sql: INSTALLATION_SCHEMA_V1, postgres: INSTALLATION_SCHEMA_V20_POSTGRES },
  { id: 25, name: 'payments: spent payment proofs', sql: PAYMENTS_SCHEMA_V1, postgres: PAYMENTS_SCHEMA_V25_POSTGRES },
  { id: 26, name: 'payments: credit ledger', sql: CREDIT_LEDGER_SCHEMA_V1, postgres: CREDIT_LEDGER_SCHEMA_V26_POSTGRES },
  { id: 27, name: 'payments: billing-provider events, transactions and subscriptions', sql: PADDLE_SCHEMA_V1, postgres: PADDLE_SCHEMA_V27_POSTGRES },
  { id: 28, name: 'payments: a claimed per-request payment may be released unspent', sql: PAYMENTS_SCHEMA_V28, postgres: PAYMENTS_SCHEMA_V28_POSTGRES },
  { id: 29, name: 'payments: the plan of each billing-provider subscription and when it was set', sql: PADDLE_SCHEMA_V29, postgres: PADDLE_SCHEMA_V29_POSTGRES },
  { id: 30, name: 'mcp: usage and anonymous allowance', sql: MCP_SCHEMA_V1, postgres: MCP_SCHEMA_V30_POSTGRES },
  { id: 40, name: 'store: job leases, the signing key every node uses', sql: STORE_SCHEMA_V40, postgres: STORE_SCHEMA_V40_POSTGRES },
  { id: 41, name: 'delivery: who claimed a webhook delivery being sent (several nodes claim from one queue)', sql: DELIVERY_SCHEMA_V41, postgres: DELIVERY_SCHEMA_V41_POSTGRES },
  { id: 42, name: 'delivery: open_streams (every open stream of every node: per-key stream limits across nodes)', sql: STREAMS_SCHEMA_V42, postgres: STREAMS_SCHEMA_V42_POSTGRES },
  { id: 50, name: 'market: halt_state (the halt view shared by the nodes)', sql: HALTS_SCHEMA_V50, postgres: HALTS_SCHEMA_V50_POSTGRES },
  { id: 60, name: 'transparency: log_state, log_tiles (full tiles and entry bundles, never changed), log_edge (the partial tiles)', sql: TRANSPARENCY_SCHEMA_V60, postgres: TRANSPARENCY_SCHEMA_V60_POSTGRES },
  { id: 61, name: 'witness: witness_logs (logs added by the operator), witness_log_heads (the latest cosigned checkpoint per log, C2SP tlog-witness)', sql: TLOG_WITNESS_SCHEMA_V61, postgres: TLOG_WITNESS_SCHEMA_V61_POSTGRES },
]

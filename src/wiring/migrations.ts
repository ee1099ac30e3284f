// The ordered list of schema migrations, one list for both backends: `sql` for SQLite, `postgres`
// for PostgreSQL (the same tables; '' where a migration has nothing to do there). The SQL of both
// dialects lives in each domain's schema.ts; the order lives here, above the domains, so that
// numbers never collide and the storage kernel imports no domain (its runners take this list).
// Append only: never edit or renumber a released migration.
import type { Migration, MigrationSql } from '../store/migrate'
import { STORE_V40 } from '../store/schema'
import { ACCOUNTS_V1, SELF_SERVICE_V5, MAIL_V6, OAUTH_TOKENS_V7, KEY_USAGE_V8 } from '../accounts/schema'
import { OVERRIDES_V2, HALTS_V50 } from '../market/schema'
import { AUDIT_V3, AUDIT_V10, AUDIT_V11, AUDIT_V12, AUDIT_V13 } from '../audit/schema'
import { WITNESS_V4, TLOG_WITNESS_V61 } from '../witness/schema'
import { DELIVERY_V15, DELIVERY_V41, STREAMS_V42 } from '../delivery/schema'
import { INSTALLATION_V20 } from '../discovery/schema'
import { PAYMENTS_V25, CREDIT_LEDGER_V26, PADDLE_V27, PAYMENTS_V28, PADDLE_V29 } from '../payments/schema'
import { MCP_V30 } from '../mcp/schema'
import { TRANSPARENCY_V60 } from '../transparency/schema'
import { CALENDAR_UPDATES_V70, CALENDAR_CHANGES_V71 } from '../calendar/updates/schema'

const migration = (id: number, name: string, { sqlite, postgres }: MigrationSql): Migration => ({ id, name, sql: sqlite, postgres })

export const MIGRATIONS: readonly Migration[] = [
  migration(1, 'accounts: api_keys', ACCOUNTS_V1),
  migration(2, 'market: overrides and override_events', OVERRIDES_V2),
  migration(3, 'audit: receipt_log', AUDIT_V3),
  migration(4, 'witness: witness_checkpoints', WITNESS_V4),
  migration(5, 'accounts: one key per agent_id, address_limits, key_events', SELF_SERVICE_V5),
  migration(6, 'accounts: mail_outbox', MAIL_V6),
  migration(7, 'accounts: oauth_tokens (hashed client-credentials tokens)', OAUTH_TOKENS_V7),
  migration(8, 'accounts: key_usage (requests per key and UTC day)', KEY_USAGE_V8),
  migration(10, 'audit: audit_log (group commit), audit_digests, audit_leaves, audit_state; receipt_log moved in', AUDIT_V10),
  migration(11, 'audit: audit_leaf_runs, audit_leaf_buckets (the leaf index of days sealed from now on; audit_leaves kept for the days before)', AUDIT_V11),
  migration(12, 'audit: the batch append parses its rows once (PostgreSQL)', AUDIT_V12),
  migration(13, 'audit: audit_digest_receipts (the log size receipt of a digest; digests signed with log_tree_size signed again over digest_fields)', AUDIT_V13),
  migration(15, 'delivery: webhooks, webhook_mics, webhook_state, webhook_deliveries (durable queue), webhook_dispatcher', DELIVERY_V15),
  migration(20, 'discovery: installation (first start)', INSTALLATION_V20),
  migration(25, 'payments: spent payment proofs', PAYMENTS_V25),
  migration(26, 'payments: credit ledger', CREDIT_LEDGER_V26),
  migration(27, 'payments: billing-provider events, transactions and subscriptions', PADDLE_V27),
  migration(28, 'payments: a claimed per-request payment may be released unspent', PAYMENTS_V28),
  migration(29, 'payments: the plan of each billing-provider subscription and when it was set', PADDLE_V29),
  migration(30, 'mcp: usage and anonymous allowance', MCP_V30),
  migration(40, 'store: job leases, the signing key every node uses', STORE_V40),
  migration(41, 'delivery: who claimed a webhook delivery being sent (several nodes claim from one queue)', DELIVERY_V41),
  migration(42, 'delivery: open_streams (every open stream of every node: per-key stream limits across nodes)', STREAMS_V42),
  migration(50, 'market: halt_state (the halt view shared by the nodes)', HALTS_V50),
  migration(60, 'transparency: log_state, log_tiles (full tiles and entry bundles, never changed), log_edge (the partial tiles)', TRANSPARENCY_V60),
  migration(61, 'witness: witness_logs (logs added by the operator), witness_log_heads (the latest cosigned checkpoint per log, C2SP tlog-witness)', TLOG_WITNESS_V61),
  migration(70, 'calendar: calendar_publications (manifest serials), calendar_upstream_manifests, calendar_upstream_files, calendar_upstream_state (the follower)', CALENDAR_UPDATES_V70),
  migration(71, 'calendar: calendar_change_events, calendar_changes (the durable list of calendar changes)', CALENDAR_CHANGES_V71),
]

// The audit trail's tables on SQLite, one constant per migration (store.ts reads and writes
// them; the same tables on PostgreSQL: schema-postgres.ts).

// Migration 3 (kept as released; migration 10 moves its rows into audit_log and drops it).
export const AUDIT_SCHEMA_V1 = `
CREATE TABLE receipt_log (
  id INTEGER PRIMARY KEY,
  receipt_id TEXT NOT NULL,
  mic TEXT NOT NULL,
  status TEXT NOT NULL,
  source TEXT NOT NULL,
  issued_at TEXT NOT NULL,
  schema_version TEXT NOT NULL,
  key_hash TEXT NOT NULL,
  receipt_json TEXT NOT NULL
);
CREATE INDEX receipt_log_issued ON receipt_log (issued_at);
CREATE TRIGGER receipt_log_no_update BEFORE UPDATE ON receipt_log BEGIN SELECT RAISE(ABORT, 'receipt_log is append-only'); END;
CREATE TRIGGER receipt_log_no_delete BEFORE DELETE ON receipt_log BEGIN SELECT RAISE(ABORT, 'receipt_log is append-only'); END;
`

// No index on the random receipt_id: it tripled the cost of every insert. All three indexes here
// grow at their right-hand end (day, then a few MICs or keys, then seq), so inserts stay cheap.
// Proofs of sealed days find ids in the leaf index written at sealing (audit_leaves until
// migration 11, then audit_leaf_runs and audit_leaf_buckets: leaf-index.ts).
export const AUDIT_SCHEMA_V10 = `
CREATE TABLE audit_log (
  seq INTEGER PRIMARY KEY,
  receipt_id TEXT NOT NULL,
  day TEXT NOT NULL,
  mic TEXT NOT NULL,
  status TEXT NOT NULL,
  source TEXT NOT NULL,
  issued_at TEXT NOT NULL,
  schema_version TEXT NOT NULL,
  surface TEXT NOT NULL,
  key_hash TEXT,
  payment_ref TEXT,
  client_ref TEXT,
  receipt_json TEXT
);
CREATE INDEX audit_log_day ON audit_log (day, seq);
CREATE INDEX audit_log_day_mic ON audit_log (day, mic, seq);
CREATE INDEX audit_log_key ON audit_log (key_hash, seq) WHERE key_hash IS NOT NULL;
INSERT INTO audit_log (receipt_id, day, mic, status, source, issued_at, schema_version, surface, key_hash, payment_ref, client_ref, receipt_json)
  SELECT receipt_id, substr(issued_at, 1, 10), mic, status, source, issued_at, schema_version, 'legacy', NULL, NULL, NULL, receipt_json FROM receipt_log ORDER BY id;
DROP TABLE receipt_log;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_prune_only BEFORE UPDATE ON audit_log
  WHEN NEW.receipt_json IS NOT NULL OR NEW.seq IS NOT OLD.seq OR NEW.receipt_id IS NOT OLD.receipt_id OR NEW.day IS NOT OLD.day
    OR NEW.mic IS NOT OLD.mic OR NEW.status IS NOT OLD.status OR NEW.source IS NOT OLD.source OR NEW.issued_at IS NOT OLD.issued_at
    OR NEW.schema_version IS NOT OLD.schema_version OR NEW.surface IS NOT OLD.surface OR NEW.key_hash IS NOT OLD.key_hash OR NEW.payment_ref IS NOT OLD.payment_ref OR NEW.client_ref IS NOT OLD.client_ref
  BEGIN SELECT RAISE(ABORT, 'audit_log is append-only; only receipt_json may be pruned'); END;
CREATE TABLE audit_digests (
  date TEXT PRIMARY KEY,
  total_receipts_issued INTEGER NOT NULL,
  exchanges_attested TEXT NOT NULL,
  merkle_root TEXT NOT NULL,
  previous_day_merkle_root TEXT,
  chain_length INTEGER NOT NULL,
  computed_at TEXT NOT NULL,
  signed_json TEXT NOT NULL
);
CREATE TRIGGER audit_digests_no_update BEFORE UPDATE ON audit_digests BEGIN SELECT RAISE(ABORT, 'audit_digests is append-only'); END;
CREATE TRIGGER audit_digests_no_delete BEFORE DELETE ON audit_digests BEGIN SELECT RAISE(ABORT, 'audit_digests is append-only'); END;
CREATE TABLE audit_leaves (receipt_id TEXT PRIMARY KEY, date TEXT NOT NULL, leaf_index INTEGER NOT NULL) WITHOUT ROWID;
CREATE TRIGGER audit_leaves_no_update BEFORE UPDATE ON audit_leaves BEGIN SELECT RAISE(ABORT, 'audit_leaves is append-only'); END;
CREATE TRIGGER audit_leaves_no_delete BEFORE DELETE ON audit_leaves BEGIN SELECT RAISE(ABORT, 'audit_leaves is append-only'); END;
CREATE TABLE audit_state (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE audit_blocks (date TEXT NOT NULL, block INTEGER NOT NULL, root TEXT NOT NULL, last_seq INTEGER NOT NULL, PRIMARY KEY (date, block)) WITHOUT ROWID;
CREATE TRIGGER audit_blocks_no_update BEFORE UPDATE ON audit_blocks BEGIN SELECT RAISE(ABORT, 'audit_blocks is append-only'); END;
CREATE TRIGGER audit_blocks_no_delete BEFORE DELETE ON audit_blocks BEGIN SELECT RAISE(ABORT, 'audit_blocks is append-only'); END;
`

// Migration 11: the leaf index of days sealed from now on (leaf-index.ts says why and how).
// audit_leaves stays as it is, read for the days sealed before; nothing writes it any more. A
// rowid table for the buckets: its rows (about 1 KiB) stay in the table's pages, where a
// WITHOUT ROWID table would move each one's bytes past a quarter page to an overflow page.
export const AUDIT_SCHEMA_V11 = `
CREATE TABLE audit_leaf_runs (date TEXT NOT NULL, run INTEGER NOT NULL, bits INTEGER NOT NULL, first_leaf INTEGER NOT NULL, leaves INTEGER NOT NULL, PRIMARY KEY (date, run)) WITHOUT ROWID;
CREATE TRIGGER audit_leaf_runs_no_update BEFORE UPDATE ON audit_leaf_runs BEGIN SELECT RAISE(ABORT, 'audit_leaf_runs is append-only'); END;
CREATE TRIGGER audit_leaf_runs_no_delete BEFORE DELETE ON audit_leaf_runs BEGIN SELECT RAISE(ABORT, 'audit_leaf_runs is append-only'); END;
CREATE TABLE audit_leaf_buckets (date TEXT NOT NULL, run INTEGER NOT NULL, bucket INTEGER NOT NULL, entries BLOB NOT NULL, PRIMARY KEY (date, run, bucket));
CREATE TRIGGER audit_leaf_buckets_no_update BEFORE UPDATE ON audit_leaf_buckets BEGIN SELECT RAISE(ABORT, 'audit_leaf_buckets is append-only'); END;
CREATE TRIGGER audit_leaf_buckets_no_delete BEFORE DELETE ON audit_leaf_buckets BEGIN SELECT RAISE(ABORT, 'audit_leaf_buckets is append-only'); END;
`

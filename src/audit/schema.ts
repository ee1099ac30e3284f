// The audit trail's tables, both dialects of each migration (wiring/migrations.ts orders them;
// store.ts and store-postgres.ts read and write them).
import type { MigrationSql } from '../store/migrate'

// Migration 3: receipt_log (kept as released; migration 10 moves its rows into audit_log and drops
// it). It never existed on PostgreSQL.
export const AUDIT_V3: MigrationSql = {
  sqlite: `
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
`,
  postgres: '',
}

/** Migration 10: audit_log (group commit), audit_digests, audit_leaves, audit_state; receipt_log moved in. */
export const AUDIT_V10: MigrationSql = {
  // No index on the random receipt_id: it tripled the cost of every insert. All three indexes here
  // grow at their right-hand end (day, then a few MICs or keys, then seq), so inserts stay cheap.
  // Proofs of sealed days find ids in the leaf index written at sealing (audit_leaves until
  // migration 11, then audit_leaf_runs and audit_leaf_buckets: leaf-index.ts).
  sqlite: `
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
`,
  // Log positions (seq) are not drawn from a sequence on PostgreSQL: a batch takes them from the
  // one row of audit_sequence, whose row lock it holds until it commits, so positions are gapless
  // and every committed row has a lower position than any row committed after it, on any node (the
  // day trees cache full blocks of positions, which is only right if no lower position can still
  // appear). The same row holds the last sealed day, which the sealer moves on under the same
  // lock, so a batch reads both at once and never commits a row into a sealed day.
  postgres: `
CREATE TABLE audit_log (
  seq BIGINT PRIMARY KEY,
  receipt_id TEXT COLLATE "C" NOT NULL,
  day TEXT COLLATE "C" NOT NULL,
  mic TEXT COLLATE "C" NOT NULL,
  status TEXT NOT NULL,
  source TEXT NOT NULL,
  issued_at TEXT COLLATE "C" NOT NULL,
  schema_version TEXT NOT NULL,
  surface TEXT NOT NULL,
  key_hash TEXT COLLATE "C",
  payment_ref TEXT,
  client_ref TEXT,
  receipt_json TEXT
);
CREATE INDEX audit_log_day ON audit_log (day, seq);
CREATE INDEX audit_log_day_mic ON audit_log (day, mic, seq);
CREATE INDEX audit_log_key ON audit_log (key_hash, seq) WHERE key_hash IS NOT NULL;
-- Statistics after every 20,000 new rows, not 10 % of the table: the day being written must not
-- look empty to the planner for hours (its pages would be read as whole-day scans and sorts).
ALTER TABLE audit_log SET (autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 20000);
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_log is append-only');
CREATE TRIGGER audit_log_prune_only BEFORE UPDATE ON audit_log FOR EACH ROW
  WHEN (NEW.receipt_json IS NOT NULL OR NEW.seq IS DISTINCT FROM OLD.seq OR NEW.receipt_id IS DISTINCT FROM OLD.receipt_id OR NEW.day IS DISTINCT FROM OLD.day
    OR NEW.mic IS DISTINCT FROM OLD.mic OR NEW.status IS DISTINCT FROM OLD.status OR NEW.source IS DISTINCT FROM OLD.source OR NEW.issued_at IS DISTINCT FROM OLD.issued_at
    OR NEW.schema_version IS DISTINCT FROM OLD.schema_version OR NEW.surface IS DISTINCT FROM OLD.surface OR NEW.key_hash IS DISTINCT FROM OLD.key_hash
    OR NEW.payment_ref IS DISTINCT FROM OLD.payment_ref OR NEW.client_ref IS DISTINCT FROM OLD.client_ref)
  EXECUTE FUNCTION openbell_refuse('audit_log is append-only; only receipt_json may be pruned');
CREATE TABLE audit_sequence (id INTEGER PRIMARY KEY CHECK (id = 1), next_seq BIGINT NOT NULL, sealed_through TEXT COLLATE "C");
INSERT INTO audit_sequence (id, next_seq, sealed_through) VALUES (1, 1, NULL);
-- One batch in one round trip: lock the position row, refuse a sealed day (SQLSTATE OB001, the
-- message is the last sealed day), insert the rows (a JSON array of objects, in log order) at
-- consecutive positions, move the position on. Called as one statement, so it commits (and
-- releases the lock) with that statement. JSON, not one array per column: the client makes it
-- with one JSON.stringify, a third less of its CPU per row than encoding twelve text arrays.
CREATE FUNCTION openbell_audit_append(batch text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  base bigint;
  sealed text;
  added bigint;
BEGIN
  SELECT next_seq, sealed_through INTO base, sealed FROM audit_sequence WHERE id = 1 FOR UPDATE;
  IF sealed IS NOT NULL AND EXISTS (SELECT 1 FROM json_array_elements(batch::json) AS e WHERE (e->>'day') COLLATE "C" <= sealed) THEN
    RAISE EXCEPTION USING ERRCODE = 'OB001', MESSAGE = sealed;
  END IF;
  INSERT INTO audit_log (seq, receipt_id, day, mic, status, source, issued_at, schema_version, surface, key_hash, payment_ref, client_ref, receipt_json)
    SELECT base + r.ord - 1, r.receipt_id, r.day, r.mic, r.status, r.source, r.issued_at, r.schema_version, r.surface, r.key_hash, r.payment_ref, r.client_ref, r.receipt_json
    FROM ROWS FROM (json_to_recordset(batch::json) AS (receipt_id text, day text, mic text, status text, source text, issued_at text, schema_version text, surface text,
      key_hash text, payment_ref text, client_ref text, receipt_json text)) WITH ORDINALITY AS r(receipt_id, day, mic, status, source, issued_at, schema_version, surface,
      key_hash, payment_ref, client_ref, receipt_json, ord);
  GET DIAGNOSTICS added = ROW_COUNT;
  UPDATE audit_sequence SET next_seq = base + added WHERE id = 1;
  RETURN base;
END $$;
CREATE TABLE audit_digests (
  date TEXT COLLATE "C" PRIMARY KEY,
  total_receipts_issued INTEGER NOT NULL,
  exchanges_attested TEXT NOT NULL,
  merkle_root TEXT NOT NULL,
  previous_day_merkle_root TEXT,
  chain_length INTEGER NOT NULL,
  computed_at TEXT NOT NULL,
  signed_json TEXT NOT NULL
);
CREATE TRIGGER audit_digests_no_update BEFORE UPDATE ON audit_digests FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_digests is append-only');
CREATE TRIGGER audit_digests_no_delete BEFORE DELETE ON audit_digests FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_digests is append-only');
CREATE TABLE audit_leaves (receipt_id TEXT COLLATE "C" PRIMARY KEY, date TEXT COLLATE "C" NOT NULL, leaf_index INTEGER NOT NULL);
CREATE TRIGGER audit_leaves_no_update BEFORE UPDATE ON audit_leaves FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_leaves is append-only');
CREATE TRIGGER audit_leaves_no_delete BEFORE DELETE ON audit_leaves FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_leaves is append-only');
CREATE TABLE audit_state (name TEXT COLLATE "C" PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE audit_blocks (date TEXT COLLATE "C" NOT NULL, block INTEGER NOT NULL, root TEXT NOT NULL, last_seq BIGINT NOT NULL, PRIMARY KEY (date, block));
CREATE TRIGGER audit_blocks_no_update BEFORE UPDATE ON audit_blocks FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_blocks is append-only');
CREATE TRIGGER audit_blocks_no_delete BEFORE DELETE ON audit_blocks FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_blocks is append-only');
`,
}

// Migration 11: the leaf index of days sealed from now on (leaf-index.ts says why and how).
// audit_leaves stays as it is, read for the days sealed before; nothing writes it any more.
export const AUDIT_V11: MigrationSql = {
  // A rowid table for the buckets: its rows (about 1 KiB) stay in the table's pages, where a
  // WITHOUT ROWID table would move each one's bytes past a quarter page to an overflow page.
  sqlite: `
CREATE TABLE audit_leaf_runs (date TEXT NOT NULL, run INTEGER NOT NULL, bits INTEGER NOT NULL, first_leaf INTEGER NOT NULL, leaves INTEGER NOT NULL, PRIMARY KEY (date, run)) WITHOUT ROWID;
CREATE TRIGGER audit_leaf_runs_no_update BEFORE UPDATE ON audit_leaf_runs BEGIN SELECT RAISE(ABORT, 'audit_leaf_runs is append-only'); END;
CREATE TRIGGER audit_leaf_runs_no_delete BEFORE DELETE ON audit_leaf_runs BEGIN SELECT RAISE(ABORT, 'audit_leaf_runs is append-only'); END;
CREATE TABLE audit_leaf_buckets (date TEXT NOT NULL, run INTEGER NOT NULL, bucket INTEGER NOT NULL, entries BLOB NOT NULL, PRIMARY KEY (date, run, bucket));
CREATE TRIGGER audit_leaf_buckets_no_update BEFORE UPDATE ON audit_leaf_buckets BEGIN SELECT RAISE(ABORT, 'audit_leaf_buckets is append-only'); END;
CREATE TRIGGER audit_leaf_buckets_no_delete BEFORE DELETE ON audit_leaf_buckets BEGIN SELECT RAISE(ABORT, 'audit_leaf_buckets is append-only'); END;
`,
  // Bucket rows are random bytes: stored uncompressed (EXTERNAL), so PostgreSQL does not try to
  // compress the few past its 2 kB limit.
  postgres: `
CREATE TABLE audit_leaf_runs (date TEXT COLLATE "C" NOT NULL, run INTEGER NOT NULL, bits INTEGER NOT NULL, first_leaf BIGINT NOT NULL, leaves INTEGER NOT NULL, PRIMARY KEY (date, run));
CREATE TRIGGER audit_leaf_runs_no_update BEFORE UPDATE ON audit_leaf_runs FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_leaf_runs is append-only');
CREATE TRIGGER audit_leaf_runs_no_delete BEFORE DELETE ON audit_leaf_runs FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_leaf_runs is append-only');
CREATE TABLE audit_leaf_buckets (date TEXT COLLATE "C" NOT NULL, run INTEGER NOT NULL, bucket INTEGER NOT NULL, entries BYTEA NOT NULL, PRIMARY KEY (date, run, bucket));
ALTER TABLE audit_leaf_buckets ALTER COLUMN entries SET STORAGE EXTERNAL;
CREATE TRIGGER audit_leaf_buckets_no_update BEFORE UPDATE ON audit_leaf_buckets FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_leaf_buckets is append-only');
CREATE TRIGGER audit_leaf_buckets_no_delete BEFORE DELETE ON audit_leaf_buckets FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_leaf_buckets is append-only');
`,
}

// Migration 12, PostgreSQL only: openbell_audit_append (migration 10) parses its batch once. The
// first version checked the batch for a sealed day by parsing its JSON a second time
// (json_array_elements) whenever a day had been sealed, which is always once a node has run a
// day: 22-29 µs of server CPU per row in batches of 32 against 16-17 µs now (17-20 for both
// while no day is sealed), about a fifth of the database's share of a receipt on the hot path
// (docs/performance.md). Now the rows are inserted and the earliest day among them is checked
// after: a batch with a row on a sealed day raises OB001 as before, and the raise undoes the
// insert with the statement (nothing of the batch is committed). The lock, the positions and the
// refusal are unchanged (migration 10).
export const AUDIT_V12: MigrationSql = {
  sqlite: 'SELECT 1' /* nothing to do on SQLite */,
  postgres: `
CREATE OR REPLACE FUNCTION openbell_audit_append(batch text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  base bigint;
  sealed text COLLATE "C";
  added bigint;
  first_day text COLLATE "C";
BEGIN
  SELECT next_seq, sealed_through INTO base, sealed FROM audit_sequence WHERE id = 1 FOR UPDATE;
  WITH inserted AS (
    INSERT INTO audit_log (seq, receipt_id, day, mic, status, source, issued_at, schema_version, surface, key_hash, payment_ref, client_ref, receipt_json)
      SELECT base + r.ord - 1, r.receipt_id, r.day, r.mic, r.status, r.source, r.issued_at, r.schema_version, r.surface, r.key_hash, r.payment_ref, r.client_ref, r.receipt_json
      FROM ROWS FROM (json_to_recordset(batch::json) AS (receipt_id text, day text, mic text, status text, source text, issued_at text, schema_version text, surface text,
        key_hash text, payment_ref text, client_ref text, receipt_json text)) WITH ORDINALITY AS r(receipt_id, day, mic, status, source, issued_at, schema_version, surface,
        key_hash, payment_ref, client_ref, receipt_json, ord)
      RETURNING day)
  SELECT count(*), min(day) INTO added, first_day FROM inserted;
  IF sealed IS NOT NULL AND first_day <= sealed THEN
    RAISE EXCEPTION USING ERRCODE = 'OB001', MESSAGE = sealed;
  END IF;
  UPDATE audit_sequence SET next_seq = base + added WHERE id = 1;
  RETURN base;
END $$;
`,
}

/**
 * Migration 13: audit_digest_receipts, the signed objects a sealed digest carries beside the
 * `receipt` of its row (docs/audit.md, "Signed digest"): `log_receipt_json`, the separately
 * signed statement of the transparency log size that holds the day (digest_log_fields), and for
 * a digest whose row was signed with log_tree_size among its members (sealed between the
 * transparency log and this migration) `resigned_json`, the same digest signed over exactly
 * digest_fields. Written with the digest, or once for such an older digest; never changed.
 */
export const AUDIT_V13: MigrationSql = {
  sqlite: `
CREATE TABLE audit_digest_receipts (
  date TEXT PRIMARY KEY REFERENCES audit_digests (date),
  log_receipt_json TEXT,
  resigned_json TEXT
);
CREATE TRIGGER audit_digest_receipts_no_update BEFORE UPDATE ON audit_digest_receipts BEGIN SELECT RAISE(ABORT, 'audit_digest_receipts is append-only'); END;
CREATE TRIGGER audit_digest_receipts_no_delete BEFORE DELETE ON audit_digest_receipts BEGIN SELECT RAISE(ABORT, 'audit_digest_receipts is append-only'); END;
`,
  postgres: `
CREATE TABLE audit_digest_receipts (
  date TEXT COLLATE "C" PRIMARY KEY REFERENCES audit_digests (date),
  log_receipt_json TEXT,
  resigned_json TEXT
);
CREATE TRIGGER audit_digest_receipts_no_update BEFORE UPDATE ON audit_digest_receipts FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_digest_receipts is append-only');
CREATE TRIGGER audit_digest_receipts_no_delete BEFORE DELETE ON audit_digest_receipts FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_digest_receipts is append-only');
`,
}

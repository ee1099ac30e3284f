// The audit trail on PostgreSQL (migration 10; migration 3's receipt_log never existed there).
// Log positions (seq) are not drawn from a sequence: a batch takes them from the one row of
// audit_sequence, whose row lock it holds until it commits, so positions are gapless and every
// committed row has a lower position than any row committed after it, on any node (the day
// trees cache full blocks of positions, which is only right if no lower position can still appear).
// The same row holds the last sealed day, which the sealer moves on under the same lock, so a
// batch reads both at once and never commits a row into a sealed day.

export const AUDIT_SCHEMA_V10_POSTGRES = `
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
`

// Migration 11: the leaf index of days sealed from now on (leaf-index.ts; audit_leaves stays for
// the days sealed before, and nothing writes it any more). Bucket rows are random bytes: stored
// uncompressed (EXTERNAL), so PostgreSQL does not try to compress the few past its 2 kB limit.
export const AUDIT_SCHEMA_V11_POSTGRES = `
CREATE TABLE audit_leaf_runs (date TEXT COLLATE "C" NOT NULL, run INTEGER NOT NULL, bits INTEGER NOT NULL, first_leaf BIGINT NOT NULL, leaves INTEGER NOT NULL, PRIMARY KEY (date, run));
CREATE TRIGGER audit_leaf_runs_no_update BEFORE UPDATE ON audit_leaf_runs FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_leaf_runs is append-only');
CREATE TRIGGER audit_leaf_runs_no_delete BEFORE DELETE ON audit_leaf_runs FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_leaf_runs is append-only');
CREATE TABLE audit_leaf_buckets (date TEXT COLLATE "C" NOT NULL, run INTEGER NOT NULL, bucket INTEGER NOT NULL, entries BYTEA NOT NULL, PRIMARY KEY (date, run, bucket));
ALTER TABLE audit_leaf_buckets ALTER COLUMN entries SET STORAGE EXTERNAL;
CREATE TRIGGER audit_leaf_buckets_no_update BEFORE UPDATE ON audit_leaf_buckets FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_leaf_buckets is append-only');
CREATE TRIGGER audit_leaf_buckets_no_delete BEFORE DELETE ON audit_leaf_buckets FOR EACH ROW EXECUTE FUNCTION openbell_refuse('audit_leaf_buckets is append-only');
`

// Migration 12 on PostgreSQL: openbell_audit_append (migration 10) parses its batch once. The
// first version checked the batch for a sealed day by parsing its JSON a second time
// (json_array_elements) whenever a day had been sealed, which is always once a node has run a
// day: 22-29 µs of server CPU per row in batches of 32 against 16-17 µs now (17-20 for both
// while no day is sealed), about a fifth of the database's share of a receipt on the hot path
// (docs/performance.md). Now the rows are inserted and the
// earliest day among them is checked after: a batch with a row on a sealed day raises OB001 as
// before, and the raise undoes the insert with the statement (nothing of the batch is
// committed). The lock, the positions and the refusal are unchanged (schema-postgres.ts).
export const AUDIT_APPEND_V12_POSTGRES = `
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
`

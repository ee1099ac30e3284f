// The tiled log on PostgreSQL (migration 60; src/transparency/store.ts has the SQLite text and
// says what the tables hold).

export const TRANSPARENCY_SCHEMA_V60_POSTGRES = `
CREATE TABLE log_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  base_seq BIGINT NOT NULL,
  size BIGINT NOT NULL,
  root TEXT NOT NULL,
  checkpoint TEXT,
  checkpoint_size BIGINT NOT NULL,
  checkpoint_at BIGINT NOT NULL
);
INSERT INTO log_state (id, base_seq, size, root, checkpoint, checkpoint_size, checkpoint_at)
  SELECT 1, coalesce((SELECT max(seq) FROM audit_log WHERE receipt_json IS NULL), 0) + 1, 0, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', NULL, 0, 0;
CREATE TABLE log_tiles (
  level INTEGER NOT NULL,
  idx BIGINT NOT NULL,
  data BYTEA NOT NULL,
  PRIMARY KEY (level, idx)
);
CREATE TRIGGER log_tiles_no_update BEFORE UPDATE ON log_tiles FOR EACH ROW EXECUTE FUNCTION openbell_refuse('log_tiles: a full tile never changes');
CREATE TRIGGER log_tiles_no_delete BEFORE DELETE ON log_tiles FOR EACH ROW EXECUTE FUNCTION openbell_refuse('log_tiles: a full tile never changes');
CREATE TABLE log_edge (
  level INTEGER PRIMARY KEY,
  idx BIGINT NOT NULL,
  width INTEGER NOT NULL CHECK (width BETWEEN 1 AND 255),
  data BYTEA NOT NULL
);
`

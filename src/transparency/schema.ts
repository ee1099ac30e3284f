// The tiled log's tables, both dialects of its migration (wiring/migrations.ts orders them).
import type { MigrationSql } from '../store/migrate'

const EMPTY_ROOT_HEX = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'

// Migration 60: the log's state (where it begins in audit_log, how far it is integrated, the
// latest checkpoint), the full tiles and entry bundles (written once, never changed) and the right
// edge (the partial tile of each level and the partial bundle, replaced by every integration step).
export const TRANSPARENCY_V60: MigrationSql = {
  // base_seq: the audit_log position of leaf 0. A new database starts at 1; one upgraded with
  // receipt bodies already pruned starts after the last pruned body (those bytes are gone).
  sqlite: `
CREATE TABLE log_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  base_seq INTEGER NOT NULL,
  size INTEGER NOT NULL,
  root TEXT NOT NULL,
  checkpoint TEXT,
  checkpoint_size INTEGER NOT NULL,
  checkpoint_at INTEGER NOT NULL
);
INSERT INTO log_state (id, base_seq, size, root, checkpoint, checkpoint_size, checkpoint_at)
  SELECT 1, coalesce((SELECT max(seq) FROM audit_log WHERE receipt_json IS NULL), 0) + 1, 0, '${EMPTY_ROOT_HEX}', NULL, 0, 0;
CREATE TABLE log_tiles (
  level INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (level, idx)
);
CREATE TRIGGER log_tiles_no_update BEFORE UPDATE ON log_tiles BEGIN SELECT RAISE(ABORT, 'log_tiles: a full tile never changes'); END;
CREATE TRIGGER log_tiles_no_delete BEFORE DELETE ON log_tiles BEGIN SELECT RAISE(ABORT, 'log_tiles: a full tile never changes'); END;
CREATE TABLE log_edge (
  level INTEGER PRIMARY KEY,
  idx INTEGER NOT NULL,
  width INTEGER NOT NULL CHECK (width BETWEEN 1 AND 255),
  data BLOB NOT NULL
);
`,
  postgres: `
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
`,
}

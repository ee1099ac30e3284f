// Recognising "the disk is full" in a storage error, whichever engine raised it, so that every
// surface answers it the same way (503 STORAGE_FULL, docs/operations.md) instead of a 500.

/** SQLite SQLITE_FULL (result code 13), PostgreSQL SQLSTATE 53100 disk_full, or the OS's ENOSPC. */
export function isStorageFull(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, errno } = error as { code?: unknown; errno?: unknown }
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || errno === '53100'
}

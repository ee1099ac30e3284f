// The ordered list of schema migrations. The SQL lives with each domain's store; the order lives
// here so that numbers never collide. Append only: never edit or renumber a released migration.
import type { Migration } from './migrate'
import { ACCOUNTS_SCHEMA_V1 } from '../accounts/store'

export const MIGRATIONS: readonly Migration[] = [
  { id: 1, name: 'accounts: api_keys', sql: ACCOUNTS_SCHEMA_V1 },
]

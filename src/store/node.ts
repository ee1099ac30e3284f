// This process as one node of its database: which backend, its name, the jobs it leads and
// whether it reaches the database (/v5/health `storage`).
import { randomBytes } from 'node:crypto'
import type { Leadership } from './leadership'

export interface NodeInfo {
  backend: 'sqlite' | 'postgres'
  /** NODE_ID, or `<host name>-<process id>`. */
  id: string
  leadership: Leadership
  /** 'degraded' while the database cannot be reached (PostgreSQL); SQLite is a local file. */
  databaseStatus(): 'ok' | 'degraded'
}

/** The unsigned `storage` member of /v5/health. */
export function storageHealth(node: NodeInfo) {
  return { storage: { backend: node.backend, node_id: node.id, leader_of: node.leadership.held(), status: node.databaseStatus() } }
}

/** A lease holder name unique to this process: `<node id>#<pid>.<random>`. */
export function leaseHolder(nodeId: string): string {
  return `${nodeId}#${process.pid}.${randomBytes(3).toString('hex')}`
}

/**
 * Whether the holder named a process of this machine that no longer runs (SQLite: every process
 * on the file runs here). Not for PostgreSQL: there a holder may run on another machine.
 */
export function localHolderIsDead(holder: string): boolean {
  const match = /#(\d+)\.[0-9a-f]+$/.exec(holder)
  if (!match) return false
  const pid = Number(match[1])
  if (pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

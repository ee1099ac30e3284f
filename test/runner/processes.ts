// Stopping what a test run started, when the runner is told to stop (SIGTERM, SIGINT). `bun test`
// dies on SIGTERM without its afterAll hooks, and what its tests started (the service as a child
// process, nginx, Chromium in a process group of its own) would outlive it. So: each `bun test`
// runs in a session of its own (spawned detached); on a stop the runner notes every descendant
// (read from /proc), asks the `bun test` processes to stop (their PostgreSQL helper stops its
// clusters on SIGTERM), then stops the process groups and every noted process that is left,
// SIGKILL after a grace period. Linux only (/proc), as the suite is.
import { readdirSync, readFileSync } from 'node:fs'

interface Entry {
  pid: number
  ppid: number
  pgid: number
  state: string
}

function processTable(): Entry[] {
  const entries: Entry[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      // pid (comm) state ppid pgrp …: the command may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      entries.push({ pid: Number(name), state: fields[0]!, ppid: Number(fields[1]), pgid: Number(fields[2]) })
    } catch {
      // gone meanwhile
    }
  }
  return entries
}

/** Every live process below `roots` (children, their children, …) and every member of the process groups `roots` lead. */
export function descendants(roots: readonly number[]): number[] {
  const table = processTable().filter((entry) => entry.state !== 'Z')
  const found = new Set<number>()
  const queue = [...roots]
  while (queue.length) {
    const parent = queue.pop()!
    for (const entry of table) {
      if (entry.ppid === parent && !found.has(entry.pid)) {
        found.add(entry.pid)
        queue.push(entry.pid)
      }
    }
  }
  for (const entry of table) if (roots.includes(entry.pgid)) found.add(entry.pid)
  for (const root of roots) found.delete(root)
  return [...found]
}

/** Running, not a zombie waiting for its parent (pid 1 in a container may never reap it). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}

const signal = (target: number, name: NodeJS.Signals) => {
  try {
    process.kill(target, name)
  } catch {
    // gone already, or not ours to signal
  }
}

async function waitUntilGone(pids: readonly number[], ms: number): Promise<void> {
  const deadline = Date.now() + ms
  while (pids.some(alive) && Date.now() < deadline) await Bun.sleep(50)
}

/**
 * Stops `leaders` (each a `bun test` spawned detached, so it leads its session and group) and
 * everything they started; answers the number of processes that were running.
 */
export async function stopTree(leaders: readonly number[], graceMs = 5000): Promise<number> {
  const noted = new Set(descendants(leaders))
  for (const pid of leaders) signal(pid, 'SIGTERM')
  await waitUntilGone(leaders, graceMs)
  // What the leaders left, wherever it was reparented: group by group, then one by one.
  for (const pid of descendants(leaders)) noted.add(pid)
  const left = [...leaders, ...noted].filter(alive)
  for (const pid of left) {
    signal(-pid, 'SIGTERM')
    signal(pid, 'SIGTERM')
  }
  await waitUntilGone(left, Math.min(graceMs, 2000))
  for (const pid of left.filter(alive)) {
    signal(-pid, 'SIGKILL')
    signal(pid, 'SIGKILL')
  }
  await waitUntilGone(left, 2000)
  return leaders.length + noted.size
}

// A short-lived cache in front of the key store, so that the hot path does not query SQLite for
// every request. Entries live one second (a suspension or a key created by the CLI in another
// process takes effect within a second, like overrides); a status change here clears it at once.
import type { Clock } from '../clock'
import type { AccountRow, AccountStore } from './store'

const TTL_MS = 1000
const MAX_ENTRIES = 10_000

export function cachedAccountStore(store: AccountStore, clock: Clock): AccountStore {
  let entries = new Map<string, { account: AccountRow | null; at: number }>()
  return {
    ...store,
    async findByHash(keyHash) {
      const now = clock.now()
      const hit = entries.get(keyHash)
      if (hit && now - hit.at < TTL_MS && now >= hit.at) return hit.account
      const account = await store.findByHash(keyHash)
      if (entries.size >= MAX_ENTRIES) entries = new Map()
      entries.set(keyHash, { account, at: now })
      return account
    },
    async findByHashFresh(keyHash) {
      const account = await store.findByHashFresh(keyHash)
      if (entries.size >= MAX_ENTRIES) entries = new Map()
      entries.set(keyHash, { account, at: clock.now() })
      return account
    },
    async setStatus(id, status) {
      await store.setStatus(id, status)
      entries = new Map()
    },
  }
}

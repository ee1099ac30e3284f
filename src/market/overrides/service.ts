// Operator overrides (the circuit breaker): validated, persisted, logged, and read through a
// cache that is never more than one second old, so that an override set by another process
// (the `openbell overrides` command) takes effect everywhere within a second. Where the store
// pushes changes (PostgreSQL: LISTEN/NOTIFY), a change on any node drops every node's cache and
// wakes its listeners at once; the one-second age limit stays as the fallback.
import type { Clock } from '../../clock'
import type { Logger } from '../../log'
import { ApiError, storageFull } from '../../http/errors'
import { isStorageFull } from '../../store/errors'
import { isSupportedMic } from '../../calendar/mics'
import type { OverrideRow, OverrideStatus, OverrideStore } from './store'

export const OVERRIDE_STATUSES: readonly OverrideStatus[] = ['OPEN', 'CLOSED', 'HALTED', 'UNKNOWN']
export const MAX_OVERRIDE_MS = 7 * 86_400_000
export const MAX_REASON_LENGTH = 500
/** The longest an override read may be stale (another process's write is seen after this). */
export const CACHE_MS = 1000

export interface OverrideRequest {
  mic: unknown
  status: unknown
  reason: unknown
  expires_at: unknown
}

export class OverrideService {
  private cache: { loadedAt: number; byMic: Map<string, OverrideRow> } | null = null
  /** Called with the MIC after an override is set or cleared in this process (delivery wakes on it). */
  readonly changed = new Set<(mic: string) => void>()

  constructor(
    private readonly store: OverrideStore,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** Follows changes made on other nodes when the store can push them; returns the stop. */
  async start(): Promise<() => Promise<void>> {
    if (!this.store.watch) return async () => {}
    return this.store.watch((mic) => {
      this.cache = null
      for (const listener of this.changed) listener(mic)
    })
  }

  /** Validates an override request; throws 400 ApiErrors naming the field. */
  validate(input: OverrideRequest, now: number): { mic: string; status: OverrideStatus; reason: string; expiresAt: string } {
    if (typeof input.mic !== 'string' || !isSupportedMic(input.mic)) throw new ApiError(400, 'UNKNOWN_MIC', 'mic must be a supported MIC')
    if (typeof input.status !== 'string' || !OVERRIDE_STATUSES.includes(input.status as OverrideStatus)) throw new ApiError(400, 'INVALID_STATUS', `status must be one of ${OVERRIDE_STATUSES.join(', ')}`)
    if (typeof input.reason !== 'string' || input.reason.trim() === '') throw new ApiError(400, 'REASON_REQUIRED', 'reason is required')
    if ([...input.reason].length > MAX_REASON_LENGTH) throw new ApiError(400, 'REASON_TOO_LONG', `reason is limited to ${MAX_REASON_LENGTH} characters`)
    if (typeof input.expires_at !== 'string') throw new ApiError(400, 'EXPIRES_AT_REQUIRED', 'expires_at (ISO date-time) is required')
    const expires = Date.parse(input.expires_at)
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(input.expires_at) || !Number.isFinite(expires)) throw new ApiError(400, 'EXPIRES_AT_INVALID', 'expires_at must be an ISO date-time with a zone')
    if (expires <= now) throw new ApiError(400, 'EXPIRES_AT_INVALID', 'expires_at must be in the future')
    if (expires - now > MAX_OVERRIDE_MS) throw new ApiError(400, 'EXPIRES_AT_INVALID', 'an override lasts at most 7 days')
    return { mic: input.mic, status: input.status as OverrideStatus, reason: input.reason.trim(), expiresAt: new Date(expires).toISOString() }
  }

  async set(input: OverrideRequest, actor: string): Promise<OverrideRow> {
    const now = this.clock.now()
    const valid = this.validate(input, now)
    const row: OverrideRow = { mic: valid.mic, status: valid.status, reason: valid.reason, expires_at: valid.expiresAt, created_at: new Date(now).toISOString(), created_by: actor }
    try {
      await this.store.put(row)
    } catch (error) {
      if (!isStorageFull(error)) throw error
      this.log.error('override not saved: storage full', { mic: row.mic, by: actor })
      throw storageFull('the database disk is full; the override was NOT saved and is not in force. Free disk space and retry')
    }
    this.cache = null
    this.log.warn('override set', { mic: row.mic, status: row.status, reason: row.reason, expires_at: row.expires_at, by: actor })
    for (const listener of this.changed) listener(row.mic)
    return row
  }

  async clear(mic: string, actor: string): Promise<boolean> {
    const removed = await this.store.remove(mic, new Date(this.clock.now()).toISOString(), actor)
    this.cache = null
    if (removed) this.log.warn('override cleared', { mic, by: actor })
    if (removed) for (const listener of this.changed) listener(mic)
    return removed
  }

  private async stored(now: number): Promise<Map<string, OverrideRow>> {
    if (!this.cache || now - this.cache.loadedAt >= CACHE_MS || now < this.cache.loadedAt) {
      const rows = await this.store.all()
      this.cache = { loadedAt: now, byMic: new Map(rows.map((row) => [row.mic, row])) }
    }
    return this.cache.byMic
  }

  /** Overrides in force now (unexpired); expired rows are ignored, not deleted. */
  async active(now = this.clock.now()): Promise<Map<string, OverrideRow>> {
    const active = new Map<string, OverrideRow>()
    for (const [mic, row] of await this.stored(now)) if (Date.parse(row.expires_at) > now) active.set(mic, row)
    return active
  }

  async forMic(mic: string, now = this.clock.now()): Promise<OverrideRow | null> {
    const row = (await this.stored(now)).get(mic)
    return row && Date.parse(row.expires_at) > now ? row : null
  }
}

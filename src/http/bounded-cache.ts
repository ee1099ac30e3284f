// A least-recently-used map bounded by entry count and by total size: answers computed once and
// served many times (calendar answers, decoded log bundles) without letting a stream of distinct
// keys grow memory. Reading an entry makes it the newest; adding past a bound drops the oldest.

export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; size: number }>()
  private total = 0

  constructor(
    private readonly limits: { maxEntries: number; maxBytes: number },
    private readonly sizeOf: (value: V) => number,
  ) {}

  get size(): number {
    return this.entries.size
  }

  /** Bytes held (as `sizeOf` counts them). */
  get bytes(): number {
    return this.total
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.value
  }

  /** Stores `value` (a value larger than the whole budget is not kept). */
  set(key: K, value: V): void {
    const size = this.sizeOf(value)
    this.delete(key)
    if (size > this.limits.maxBytes) return
    this.entries.set(key, { value, size })
    this.total += size
    while (this.entries.size > this.limits.maxEntries || this.total > this.limits.maxBytes) this.delete(this.entries.keys().next().value as K)
  }

  delete(key: K): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    this.total -= entry.size
  }

  clear(): void {
    this.entries.clear()
    this.total = 0
  }
}

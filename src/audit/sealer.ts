// The daily sealing job: shortly after each UTC midnight it seals the day before: commits what
// is still in flight, computes the digest once, signs it and stores it (append-only). A start
// that missed midnights, or a clock moved forward by hours or weeks, seals every missing day in
// order, empty days included, so the chain has no holes.
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { Signer } from '../crypto/signer'
import type { AuditLog } from './log'
import { addDays, utcDay } from './dates'
import { logTreeSizeOf, micsOfDay, sealedDigest, signAgain, type DigestLog } from './digest'
import type { DayTrees } from './day-tree'
import { toHex } from './merkle'
import { writeLeafIndex } from './leaf-index'

/** Receipts may still be between signing and the log for a moment after midnight. */
export const SEAL_GRACE_MS = 5_000
export const SEAL_CHECK_MS = 10_000
export const STARTED_ON = 'log_started_on'

export interface SealerDeps {
  audit: AuditLog
  trees: DayTrees
  signer: Signer
  issuer: string
  clock: Clock
  log: Logger
  /** audit_log position of the transparency log's leaf 0 (absent: digests name no log size). */
  logBase?: () => Promise<number>
  /** The transparency log's origin, named in each digest's log receipt. */
  logOrigin?: string
}

export class DigestSealer {
  private timer: ReturnType<typeof setInterval> | null = null
  private running: Promise<string[]> | null = null
  /** Set once no digest is left that signed log_tree_size in its receipt without a second signature. */
  private signedAgain = false

  constructor(private readonly deps: SealerDeps) {}

  /** The first day of the chain: the earliest logged day, or the day of the first start. */
  async startedOn(): Promise<string> {
    const store = this.deps.audit.store
    const recorded = await store.state(STARTED_ON)
    if (recorded) return recorded
    const first = await store.firstLogDay()
    const today = utcDay(this.deps.clock.now())
    await store.setStateIfMissing(STARTED_ON, first && first < today ? first : today)
    return (await store.state(STARTED_ON))!
  }

  /** Seals every unsealed day before today (less the grace); returns the dates sealed. */
  tick(): Promise<string[]> {
    this.running ??= this.sealDue().finally(() => {
      this.running = null
    })
    return this.running
  }

  private async sealDue(): Promise<string[]> {
    const { audit, trees, signer, issuer, clock, log } = this.deps
    const store = audit.store
    const sealBefore = utcDay(clock.now() - SEAL_GRACE_MS)
    if (!this.signedAgain && signer.online) this.signedAgain = await this.signDigestsAgain()
    const last = await store.lastDigest()
    if (last) audit.sealedThrough = last.date
    let next = last ? addDays(last.date, 1) : await this.startedOn()
    const sealed: string[] = []
    while (next < sealBefore) {
      if (!signer.online) {
        log.error('cannot seal the audit digest: signer offline; will retry', { date: next })
        break
      }
      // Commit rows still waiting, then refuse any later row of the day (503, never a row
      // outside its root): in this process, and in the database for every node (closeDay), so
      // the rows the tree is built over are the day's rows. The digest below still checks the count.
      await audit.flush()
      const date = next
      audit.sealedThrough = date
      await store.closeDay(date)
      const started = performance.now()
      const tree = await trees.tree(date)
      const mics = await micsOfDay(store, date)
      // Before the digest, so that a sealed day always has its leaf index (a seal cut short is run again).
      await writeLeafIndex(store, date, tree.size)
      const blocks = tree.full.roots.slice(0, tree.fullCount).map((root, index) => ({ root: toHex(root), last_seq: tree.full.lastSeqs[index]! }))
      const logSize = await this.logOf(date)
      const row = await store.insertDigest(date, tree.size, blocks, (previous) => sealedDigest(signer, issuer, date, tree, mics, previous, new Date(clock.now()).toISOString(), logSize))
      // Its blocks' roots are stored now; the cached id prefixes are for days not sealed yet.
      trees.forget(date)
      log.info('audit digest sealed', { date, receipts: row.total_receipts_issued, merkle_root: row.merkle_root, ms: Math.round(performance.now() - started) })
      sealed.push(date)
      next = addDays(date, 1)
    }
    return sealed
  }

  /**
   * The transparency log's size that holds every receipt of `date` and of the days before: past
   * the last position of the day, of the day before (rows of two days interleave around
   * midnight) and of what the previous digest named. Rows of the day are all committed by now.
   */
  private async logOf(date: string): Promise<DigestLog | undefined> {
    if (!this.deps.logBase) return undefined
    const store = this.deps.audit.store
    const base = await this.deps.logBase()
    const previous = await store.lastDigest()
    const lastSeqs = await Promise.all([store.lastSeqOfDay(date), store.lastSeqOfDay(addDays(date, -1))])
    const treeSize = Math.max(previous ? (logTreeSizeOf(previous) ?? 0) : 0, ...lastSeqs.map((seq) => (seq === null ? 0 : seq - base + 1)))
    return { origin: this.deps.logOrigin ?? '', treeSize }
  }

  /**
   * Digests sealed while their receipt signed log_tree_size too (a member digest_fields does not
   * list, so a verifier written from the specification failed on them): each gets its receipt
   * signed again over exactly digest_fields and its log receipt, once, kept beside the row
   * (which is never changed). True when none is left.
   */
  private async signDigestsAgain(): Promise<boolean> {
    const { audit, signer, log } = this.deps
    const rows = await audit.store.digestsToSignAgain()
    for (const row of rows) {
      const signed = signAgain(signer, this.deps.logOrigin ?? '', row)
      if (signed) await audit.store.addDigestReceipts(row.date, signed.logReceiptJson, signed.resignedJson)
    }
    if (rows.length) log.info('audit digests signed again over exactly digest_fields, with their log receipts', { digests: rows.length, from: rows[0]!.date, to: rows.at(-1)!.date })
    return true
  }

  wake(): void {
    void this.tick().catch((error: Error) => this.deps.log.error('audit sealing failed; will retry', { error: error.message }))
  }

  start(): () => void {
    this.wake()
    this.timer = setInterval(() => this.wake(), SEAL_CHECK_MS)
    return () => {
      if (this.timer) clearInterval(this.timer)
      this.timer = null
    }
  }
}

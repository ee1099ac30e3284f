// Publishing checkpoints: after each integration step, a checkpoint of the integrated tree is
// signed with the note key, cosigned by this service's own witness (through the same
// add-checkpoint check any log gets: consistent with the last checkpoint it cosigned) and by the
// witnesses of LOG_WITNESS_POLICY_FILE (each asked over HTTP with a consistency proof, bounded by
// LOG_WITNESS_TIMEOUT_MS), then stored as the log's latest. Nothing is published for a size the
// tiles do not reach, and never a checkpoint the own witness refused.
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { AddCheckpointOutcome, AddCheckpointRequest } from '../witness/tlog/add-checkpoint'
import { checkpointText } from './checkpoint'
import { checkSignature, lineKeyId, parseNote as parseSignedNote } from '@openbell/verify'
import type { LogKeys } from './keys'
import { base64 } from './note'
import { consistencyProof } from './proofs'
import type { TileReader } from './reader'
import type { TileStore } from './store'
import type { PolicyWitness } from './witness-policy'

/** An unchanged tree is signed again this often, so cosignature timestamps stay fresh. */
export const CHECKPOINT_REFRESH_MS = 60_000

export interface PublisherDeps {
  tiles: TileStore
  reader: TileReader
  keys: LogKeys
  /** This service's own witness (in process). */
  ownWitness: { add: (request: AddCheckpointRequest) => Promise<AddCheckpointOutcome>; size: () => Promise<number> }
  witnesses: readonly PolicyWitness[]
  witnessTimeoutMs: number
  clock: Clock
  log: Logger
}

export class CheckpointPublisher {
  /** Last size each policy witness is known to have cosigned (its 409 answers correct it). */
  private readonly witnessSizes = new Map<string, number>()

  constructor(private readonly deps: PublisherDeps) {}

  async publish(): Promise<boolean> {
    const { tiles, keys, clock } = this.deps
    const state = await tiles.state()
    const now = clock.now()
    if (state.checkpoint !== null && state.checkpointSize === state.size && now - state.checkpointAt < CHECKPOINT_REFRESH_MS) return false
    const text = checkpointText(keys.origin, state.size, new Uint8Array(Buffer.from(state.rootHex, 'hex')))
    // The log's Ed25519 note signature, then its ML-DSA-44 one (a cosignature by the log itself).
    const signed = keys.note.sign(text) + keys.noteMlDsa.cosign(text, Math.max(1, Math.floor(now / 1000)))
    const own = await this.ownCosignature(signed, state.size)
    if (own === null) return false
    const others = await Promise.all(this.deps.witnesses.map((witness) => this.ask(witness, signed, state.size)))
    const stored = await tiles.publishCheckpoint(state.size, signed + own + others.join(''), now)
    this.deps.reader.forget()
    return stored
  }

  private async proof(old: number, size: number): Promise<Uint8Array[]> {
    return consistencyProof(this.deps.reader.nodes(size), old, size)
  }

  private async ownCosignature(signed: string, size: number): Promise<string | null> {
    const { ownWitness, log } = this.deps
    let old = await ownWitness.size()
    for (let attempt = 0; attempt < 2; attempt++) {
      if (old > size) break
      const outcome = await ownWitness.add({ oldSize: old, proof: await this.proof(old, size), checkpoint: signed })
      if (outcome.kind === 'cosigned') return outcome.lines
      if (outcome.kind !== 'conflict') {
        log.error('the own witness refused a checkpoint of this log; nothing is published', { size, outcome: outcome.kind, detail: 'message' in outcome ? outcome.message : undefined })
        return null
      }
      old = outcome.size
    }
    log.error('the own witness has cosigned a larger tree than the log holds; nothing is published', { size, witnessed: old })
    return null
  }

  /** One policy witness's cosignature line, or '' when it fails, refuses or is too slow. */
  private async ask(witness: PolicyWitness, signed: string, size: number): Promise<string> {
    const { log, witnessTimeoutMs } = this.deps
    const deadline = AbortSignal.timeout(witnessTimeoutMs)
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const old = Math.min(this.witnessSizes.get(witness.label) ?? 0, size)
        const body = `old ${old}\n${(await this.proof(old, size)).map((hash) => `${base64(hash)}\n`).join('')}\n${signed}`
        const response = await fetch(`${witness.url}/add-checkpoint`, { method: 'POST', body, signal: deadline, headers: { 'content-type': 'text/plain; charset=utf-8' } })
        const answer = await response.text()
        if (response.status === 409 && /^(0|[1-9][0-9]*)\n$/.test(answer)) {
          const theirs = Number(answer.trim())
          if (theirs > size) break
          this.witnessSizes.set(witness.label, theirs)
          continue
        }
        if (response.status !== 200) {
          log.warn('witness refused the checkpoint', { witness: witness.label, status: response.status, size })
          return ''
        }
        const note = parseSignedNote(signed + answer)
        const id = lineKeyId(witness.key, true)
        const lines = note?.signatures.filter((line) => line.name === witness.key.name && line.keyId === id) ?? []
        if (!note || !lines.length || checkSignature(note, witness.key, true).verdict !== 'valid') {
          log.warn('witness answered without a valid cosignature of its key', { witness: witness.label, size })
          return ''
        }
        this.witnessSizes.set(witness.label, size)
        return lines.map((line) => line.line).join('')
      }
      log.warn('witness has seen a larger tree of this log than it holds', { witness: witness.label, size })
    } catch (error) {
      log.warn('witness did not answer in time', { witness: witness.label, size, error: (error as Error).message })
    }
    return ''
  }
}

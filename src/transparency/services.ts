// The transparency log's parts, built once per app over the stores: the read path, and the
// integrator with its checkpoint publisher. This log's own witness (the C2SP witness of this
// service) is handed in by src/wiring/transparency.ts, which builds both.
import type { Config } from '../config'
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { AuditStore } from '../audit/store'
import type { LogKeys } from './keys'
import { TileReader } from './reader'
import type { TileStore } from './store'
import { LogIntegrator } from './integrator'
import { CheckpointPublisher, type PublisherDeps } from './publisher'
import { readWitnessPolicy } from './witness-policy'
import { checkQuorum, publishedPolicy } from './policy'

export interface TransparencyLog {
  /** Null while the signer is offline. */
  keys: LogKeys | null
  tiles: TileStore
  reader: TileReader
  integrator: LogIntegrator
  /** The tlog-policy text of /log/policy; null while the signer is offline. */
  policy: string | null
  /** LOG_CHECKPOINT_INTERVAL_MS: how soon a logged receipt is in a checkpoint. */
  checkpointIntervalMs: number
}

/** `ownWitness` null (the signer offline): no checkpoint is published. */
export function transparencyLog(parts: { settings: Config['transparency']; baseUrl: string; keys: LogKeys | null; ownWitness: PublisherDeps['ownWitness'] | null; clock: Clock; log: Logger; audit: AuditStore; tiles: TileStore }): TransparencyLog {
  const { settings, keys, ownWitness, clock, log } = parts
  const reader = new TileReader(parts.tiles)
  const witnesses = settings.witnessPolicyFile ? readWitnessPolicy(settings.witnessPolicyFile) : []
  checkQuorum(settings.policyQuorum, witnesses, settings.witnessPolicyFile)
  const publisher =
    keys && ownWitness
      ? new CheckpointPublisher({
          tiles: parts.tiles,
          reader,
          keys,
          ownWitness,
          witnesses,
          witnessTimeoutMs: settings.witnessTimeoutMs,
          clock,
          log,
        })
      : null
  const integrator = new LogIntegrator({ audit: parts.audit, tiles: parts.tiles, publisher, log, intervalMs: settings.checkpointIntervalMs })
  const policy = keys ? publishedPolicy({ keys, witnesses, quorum: settings.policyQuorum, baseUrl: parts.baseUrl }) : null
  return { keys, tiles: parts.tiles, reader, integrator, policy, checkpointIntervalMs: settings.checkpointIntervalMs }
}

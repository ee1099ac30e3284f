// The transparency log and the C2SP witness wired together: the log's keys (derived from the
// signing seed) name this log to the witness and give it its cosigning key, and the witness's
// add-checkpoint check is the first witness of every checkpoint the log publishes. Each domain
// builds its own parts (transparency/services.ts, witness/tlog/services.ts); only this file
// knows both.
import type { Config } from '../config'
import type { Clock } from '../clock'
import type { Logger } from '../log'
import type { Signer } from '../crypto/signer'
import type { AuditStore } from '../audit/store'
import type { Transactor } from '../store/transaction'
import { logKeys } from '../transparency/keys'
import type { TileStore } from '../transparency/store'
import { transparencyLog, type TransparencyLog } from '../transparency/services'
import type { TlogWitnessStore } from '../witness/tlog/store'
import { tlogWitnessServices, type TlogWitness } from '../witness/tlog/services'

export function transparencyServices(parts: { config: Config; clock: Clock; log: Logger; signer: Signer; transactor: Transactor; audit: AuditStore; tiles: TileStore; tlogWitness: TlogWitnessStore }): { transparency: TransparencyLog; tlogWitness: TlogWitness } {
  const { config, clock, log, signer, transactor } = parts
  const settings = config.transparency
  const keys = logKeys(signer, settings.origin, settings.witnessName)
  const tlogWitness = tlogWitnessServices({ store: parts.tlogWitness, transactor, clock, logsFile: settings.witnessLogsFile, own: keys ? { origin: keys.origin, vkey: keys.note.vkey, cosigner: keys.witness } : null })
  const { add } = tlogWitness
  const ownWitness = keys && add ? { add, size: async () => (await parts.tlogWitness.latest(keys.origin))?.size ?? 0 } : null
  return { transparency: transparencyLog({ settings, baseUrl: config.publicBaseUrl, keys, ownWitness, clock, log, audit: parts.audit, tiles: parts.tiles }), tlogWitness }
}

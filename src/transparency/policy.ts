// The tlog-policy this service publishes at /log/policy (c2sp.org/tlog-policy): its log keys
// (Ed25519 and ML-DSA-44: a checkpoint signed by either is accepted), its own witness's two keys
// gathered in one group (either cosignature counts as that witness), the witnesses of
// LOG_WITNESS_POLICY_FILE, and the quorum the operator sets with LOG_POLICY_QUORUM.
import { formatVkey, SIG_COSIGNATURE_V1, SIG_ED25519 } from './note'
import type { LogKeys } from './keys'
import { WitnessPolicyError, type PolicyWitness } from './witness-policy'

/** Witness keys in the policy must be cosigner vkeys: an Ed25519 witness listed in the 0x01 form is published in its 0x04 form. */
const cosignerVkey = (witness: PolicyWitness) => (witness.key.type === SIG_ED25519 ? formatVkey(witness.key.name, SIG_COSIGNATURE_V1, witness.key.publicKey) : witness.vkey)

/** Checks LOG_POLICY_QUORUM against the witnesses there are (the own one and the listed ones). */
export function checkQuorum(quorum: string, witnesses: readonly PolicyWitness[], file: string | null): void {
  const count = 1 + witnesses.length
  if (/^[0-9]+$/.test(quorum) && Number(quorum) > count) throw new WitnessPolicyError(file ?? '(unset)', 0, `LOG_POLICY_QUORUM=${quorum} asks for ${quorum} witnesses, but there are only ${count} (this service's own and ${witnesses.length} of LOG_WITNESS_POLICY_FILE)`)
}

export function publishedPolicy(parts: { keys: LogKeys; witnesses: readonly PolicyWitness[]; quorum: string; baseUrl: string }): string {
  const { keys, witnesses, quorum, baseUrl } = parts
  const self = keys.witness.name
  const lines = [
    `# tlog-policy of the receipt log ${keys.origin} (c2sp.org/tlog-policy), served at ${baseUrl}/log/policy`,
    '# Log keys: Ed25519 (0x01) and ML-DSA-44 (0x06). For post-quantum checks only, delete every Ed25519 line',
    '# (the log line with a key of type 0x01 and the witness keys of type 0x04) and the group members that named them.',
    `log ${keys.note.vkey} ${baseUrl}/log`,
    `log ${keys.noteMlDsa.vkey} ${baseUrl}/log`,
    `witness ${self}#ed25519 ${keys.witness.ed25519.cosignatureVkey} ${baseUrl}`,
    `witness ${self}#ml-dsa-44 ${keys.witness.mlDsa.vkey} ${baseUrl}`,
    `group ${self} any ${self}#ed25519 ${self}#ml-dsa-44`,
    ...witnesses.map((witness) => `witness ${witness.label} ${cosignerVkey(witness)} ${witness.url}`),
  ]
  const members = [self, ...witnesses.map((witness) => witness.label)]
  if (quorum === 'self' || quorum === 'none') lines.push(`quorum ${quorum === 'self' ? self : 'none'}`)
  else lines.push(`group ${self}#quorum ${quorum} ${members.join(' ')}`, `quorum ${self}#quorum`)
  return `${lines.join('\n')}\n`
}

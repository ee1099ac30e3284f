// The witnesses this log asks for cosignatures (LOG_WITNESS_POLICY_FILE), written as a C2SP
// tlog-policy file: `witness <name> <vkey> <url>` lines (Ed25519 or ML-DSA-44 cosigner keys), where <url> is the witness's submission
// prefix (add-checkpoint is POSTed to <url>/add-checkpoint). `log`, `group` and `quorum` lines
// are accepted and ignored here: the log collects cosignatures; policies are for verifiers.
import { readFileSync } from 'node:fs'
import { parseVkey, SIG_COSIGNATURE_ML_DSA_44, type Vkey } from '@openbell/verify'

export interface PolicyWitness {
  /** The name the policy gives it. */
  label: string
  /** The cosigner's key: Ed25519 (a 0x01 or 0x04 vkey) or ML-DSA-44 (0x06). */
  key: Vkey
  vkey: string
  url: string
}

export const isMlDsa = (witness: PolicyWitness) => witness.key.type === SIG_COSIGNATURE_ML_DSA_44

export class WitnessPolicyError extends Error {
  constructor(file: string, line: number, message: string) {
    super(`LOG_WITNESS_POLICY_FILE: ${file} line ${line}: ${message}`)
    this.name = 'WitnessPolicyError'
  }
}

export function parseWitnessPolicy(text: string, file = 'policy'): PolicyWitness[] {
  const witnesses: PolicyWitness[] = []
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim()
    if (!line || line.startsWith('#')) return
    const [keyword, ...items] = line.split(/[ \t]+/)
    if (keyword === 'log' || keyword === 'group' || keyword === 'quorum') return
    if (keyword !== 'witness') throw new WitnessPolicyError(file, i + 1, `unknown line "${keyword}"`)
    const [label, vkeyText, url] = items
    const vkey = vkeyText ? parseVkey(vkeyText) : null
    if (!label || !vkey) throw new WitnessPolicyError(file, i + 1, 'expected: witness <name> <vkey> <url>')
    if (!url || !/^https?:\/\/\S+$/.test(url) || items.length !== 3) throw new WitnessPolicyError(file, i + 1, 'a witness this log asks needs its submission URL (http or https) as the last item')
    if (witnesses.some((w) => w.label === label)) throw new WitnessPolicyError(file, i + 1, `the name ${label} is used twice`)
    witnesses.push({ label, key: vkey, vkey: vkeyText!, url: url.replace(/\/+$/, '') })
  })
  return witnesses
}

export function readWitnessPolicy(file: string): PolicyWitness[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new WitnessPolicyError(file, 0, `cannot read it: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  return parseWitnessPolicy(text, file)
}

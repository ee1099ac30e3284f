// `openbell log verify --proof <file> --policy <file> [--receipt <file>] [--keys <file>] [--at <time>]`:
// checks a C2SP tlog-proof offline, with no network: the checkpoint's log signature and
// cosignatures under the tlog-policy (its quorum), and with --receipt the inclusion of that
// receipt (the receipt exactly as the service answered it, e.g. the body of /v5/status; a
// proof whose extra line names another receipt is refused). With --keys (a saved /v5/keys
// document) the receipt's own signature is checked too, its 60-second window at --at (default:
// when it was issued: a proof is for audits long after the answer).
// Exit 0: verified; 1: a check failed (a line "FAIL: <reason>: …"); 2: usage or an unreadable file.
import { readFileSync } from 'node:fs'
import { fromUtf8, parseTlogProof, verifyReceiptProof, verifyTlogProof, type KeysDocument } from '@openbell/verify'

export const LOG_PROOF_USAGE = `usage: openbell log verify --proof <file> --policy <file> [--receipt <file>] [--keys <file>] [--at <time>]

  Verifies a C2SP tlog-proof (from GET /log/proof/receipt/<id>) offline, under a C2SP tlog-policy
  (from GET /log/policy, or your own): the log's signature of the checkpoint, the witnesses'
  cosignatures and their quorum, and with --receipt the inclusion of that receipt, given exactly
  as the service answered it. --keys (a saved /v5/keys) also checks the receipt's signature,
  valid at --at (ISO 8601; default: its issued_at). No network is used.
  Exit 0: verified; 1: a check failed; 2: usage or file error.`

/** A file's text; a message on failure. */
function readText(path: string, what: string): { ok: true; text: string } | { ok: false; message: string } {
  try {
    const text = fromUtf8(new Uint8Array(readFileSync(path)))
    return text === null ? { ok: false, message: `${what} ${path} is not UTF-8` } : { ok: true, text }
  } catch (error) {
    return { ok: false, message: `cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }
  }
}

export function runLogProofCommand(args: string[], out: (line: string) => void, err: (line: string) => void): number {
  const options: Record<string, string> = {}
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i]!, args[i + 1]]
    if (!['--proof', '--policy', '--receipt', '--keys', '--at'].includes(flag) || value === undefined || flag.slice(2) in options) {
      err(`${value === undefined ? `${flag} needs a value` : `unexpected option ${flag}`}\n${LOG_PROOF_USAGE}`)
      return 2
    }
    options[flag.slice(2)] = value
  }
  if (!options.proof || !options.policy) {
    err(`--proof and --policy are required\n${LOG_PROOF_USAGE}`)
    return 2
  }
  const files: Record<string, string> = {}
  for (const name of ['proof', 'policy', 'receipt', 'keys'] as const) {
    if (!options[name]) continue
    const read = readText(options[name], name === 'keys' ? 'the keys document' : `the ${name}`)
    if (!read.ok) {
      err(read.message)
      return 2
    }
    files[name] = read.text
  }
  let keys: KeysDocument | undefined
  if (files.keys !== undefined) {
    try {
      keys = JSON.parse(files.keys) as KeysDocument
    } catch {
      err(`the keys document ${options.keys} is not JSON (save the body of GET /v5/keys)`)
      return 2
    }
  }
  const at = options.at === undefined ? undefined : Date.parse(options.at)
  if (at !== undefined && !Number.isFinite(at)) {
    err(`--at must be a time such as 2026-03-10T15:00:00Z, not ${options.at}`)
    return 2
  }
  const parsed = parseTlogProof(files.proof!)
  if (!parsed.ok) {
    out(`FAIL: malformed_proof: ${parsed.message}`)
    return 1
  }
  if (files.receipt === undefined) {
    // Without the entry, everything but the inclusion is checked (the proof's path needs the leaf).
    const verdict = verifyTlogProof(files.proof!, files.policy!, new Uint8Array())
    if (!verdict.valid && verdict.reason !== 'inclusion_failed') {
      out(`FAIL: ${verdict.reason}: ${verdict.message}`)
      return 1
    }
    out(`checkpoint: ${verdict.origin} size ${verdict.treeSize}; signed by ${verdict.logKeys!.join(', ')}; cosigned by ${verdict.cosignatures!.map((entry) => entry.witness).join(', ') || 'no witness of the policy'} (quorum met)`)
    out(`OK: the checkpoint holds under the policy; the inclusion of entry ${verdict.index} was not checked: give --receipt`)
    return 0
  }
  let issuedAt: number | undefined
  try {
    issuedAt = Date.parse((JSON.parse(files.receipt) as { issued_at?: string }).issued_at ?? '')
  } catch {
    out('FAIL: malformed_receipt: the receipt file is not JSON (save the answer exactly as the service gave it)')
    return 1
  }
  const verdict = verifyReceiptProof(files.receipt, files.proof!, files.policy!, { keys, now: at ?? (Number.isFinite(issuedAt) ? issuedAt : undefined) })
  if (!verdict.valid) {
    out(`FAIL: ${verdict.reason}: ${verdict.message}`)
    return 1
  }
  const { proof } = verdict
  out(`checkpoint: ${proof.origin} size ${proof.treeSize}; signed by ${proof.logKeys!.join(', ')}`)
  for (const entry of proof.cosignatures ?? []) out(`witness ${entry.witness} (${entry.key}): cosigned${entry.timestamp ? ` at ${new Date(entry.timestamp * 1000).toISOString()}` : ''}`)
  if (verdict.signature) out(`receipt signature: ${verdict.signature.message}`)
  out(`OK: ${verdict.message}`)
  return 0
}

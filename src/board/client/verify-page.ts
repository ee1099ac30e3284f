// The verify page's behaviour: load /v5/keys once, verify what is pasted (verify-core.ts) and
// show each receipt's verdict, key, expiry and signed members; check an inclusion proof
// (inclusion.ts): a day's audit proof, or a C2SP tlog-proof. Requests go only to this service:
// /v5/keys, /v5/audit/proof, /v5/audit/digest, /log/policy.
import { checkInclusion, checkTlogProof, isTlogProof, type InclusionVerdict, type Proof } from './inclusion'
import { receiptsIn, TYPE_WORDS, verifyReceipt, type KeyRegistry, type Verdict } from './verify-core'
import { byId, el, setText } from './dom'

export async function fetchJson(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(path, { headers: { accept: 'application/json' } })
  let body: unknown = null
  try {
    body = await response.json()
  } catch {
    body = null
  }
  return { status: response.status, body }
}

/** The key registry, or null with the reason shown in `status`. */
export async function loadKeys(status: HTMLElement | null): Promise<KeyRegistry | null> {
  try {
    const answer = await fetchJson('/v5/keys')
    const registry = answer.body as KeyRegistry
    if (answer.status !== 200 || !Array.isArray(registry?.keys)) throw new Error(`HTTP ${answer.status}`)
    setText(status, registry.keys.length ? `Keys from /v5/keys: ${registry.keys.map((key) => key.key_id).join(', ')}.` : 'The service publishes no signing key.')
    return registry
  } catch (error) {
    setText(status, `The keys could not be loaded from /v5/keys (${(error as Error).message}).`)
    return null
  }
}

const dl = (pairs: [string, string | null | undefined][]) => el('dl', { class: 'facts' }, ...pairs.filter(([, value]) => value !== null && value !== undefined && value !== '').map(([term, value]) => el('div', {}, el('dt', {}, term), el('dd', {}, value!))))

function verdictView(verdict: Verdict, index: number, total: number): HTMLElement {
  const word = verdict.valid ? (verdict.expired ? 'Valid signature — expired' : 'Valid') : 'Invalid'
  const heading = el('h3', {}, total > 1 ? `Receipt ${index + 1}: ${word}` : word)
  const key = verdict.key
  const table = verdict.signed.length
    ? el(
        'table',
        {},
        el('caption', {}, 'Signed members (canonical order)'),
        el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Member'), el('th', { scope: 'col' }, 'Value'))),
        el('tbody', {}, ...verdict.signed.map(([name, value]) => el('tr', {}, el('th', { scope: 'row' }, name), el('td', {}, el('code', {}, value))))),
      )
    : null
  return el(
    'article',
    { class: `verdict ${verdict.valid ? (verdict.expired ? 'verdict-expired' : 'verdict-valid') : 'verdict-invalid'}`, 'data-valid': String(verdict.valid), 'data-reason': verdict.reason },
    heading,
    el('p', {}, el('strong', {}, verdict.reason), ': ', verdict.detail),
    dl([
      ['Type', verdict.type ? TYPE_WORDS[verdict.type] : null],
      ['Key id', verdict.keyId],
      ['Key valid', key ? `from ${key.valid_from ?? '—'} until ${key.valid_until ?? 'no scheduled rotation'}` : null],
      ['Expires', verdict.expiresAt ? `${verdict.expiresAt}${verdict.expired ? ' (expired)' : ''}` : verdict.type ? 'does not expire (a record, not an answer)' : null],
    ]),
    table,
    verdict.optional.length ? el('p', { class: 'muted' }, `Also signed: ${verdict.optional.join(', ')}, under the keys document's digest_optional_fields. This is a digest's receipt as first published (receipt_with_log_tree_size); the digest's receipt signs exactly digest_fields and its log receipt signs the log size.`) : null,
    verdict.unsigned.length ? el('p', { class: 'muted' }, `Not covered by the signature: ${verdict.unsigned.join(', ')}.`) : null,
    verdict.canonical ? el('details', {}, el('summary', {}, 'Canonical bytes that were checked'), el('pre', {}, verdict.canonical)) : null,
  )
}

function inclusionView(verdict: InclusionVerdict): HTMLElement {
  const word = { included: 'Included in the signed root', pending: 'Not sealed yet', failed: 'Not proven' }[verdict.outcome]
  return el('article', { class: `verdict verdict-${verdict.outcome === 'included' ? 'valid' : verdict.outcome === 'pending' ? 'expired' : 'invalid'}`, 'data-outcome': verdict.outcome }, el('h3', {}, word), el('p', {}, verdict.detail), dl(verdict.facts))
}

function parse(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    return { ok: false, message: `Not JSON: ${(error as Error).message}` }
  }
}

export async function startVerifyPage(): Promise<void> {
  const form = byId<HTMLFormElement>('verify-form')
  const input = byId<HTMLTextAreaElement>('receipt-input')
  const output = byId('verify-output')
  const section = byId('verify-result')
  const proofForm = byId<HTMLFormElement>('proof-form')
  const proofInput = byId<HTMLTextAreaElement>('proof-input')
  const proofOutput = byId('proof-output')
  const proofSection = byId('proof-result')
  if (!form || !input || !output || !section || !proofForm || !proofInput || !proofOutput || !proofSection) return
  const registry = await loadKeys(byId('keys-status'))
  if (!registry) return
  for (const button of [byId<HTMLButtonElement>('verify-button'), byId<HTMLButtonElement>('proof-button')]) if (button) button.disabled = false

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    section.hidden = false
    const parsed = parse(input.value)
    if (!parsed.ok) return output.replaceChildren(el('p', { class: 'verdict verdict-invalid', 'data-valid': 'false', 'data-reason': 'NOT_JSON' }, parsed.message))
    const { receipts, note } = receiptsIn(parsed.value)
    const verdicts = await Promise.all(receipts.map((receipt) => verifyReceipt(registry, receipt, Date.now())))
    output.replaceChildren(...(note ? [el('p', { class: 'muted' }, note)] : []), ...verdicts.map((verdict, index) => verdictView(verdict, index, verdicts.length)))
  })

  proofForm.addEventListener('submit', async (event) => {
    event.preventDefault()
    proofSection.hidden = false
    const parsed = parse(input.value)
    const receipt = parsed.ok ? receiptsIn(parsed.value).receipts[0] : null
    if (isTlogProof(proofInput.value.replace(/\r\n/g, '\n'))) {
      setText(proofOutput, 'Checking…')
      const fetchText = async (path: string) => {
        const response = await fetch(path)
        return { status: response.status, text: await response.text() }
      }
      return proofOutput.replaceChildren(inclusionView(await checkTlogProof(input.value.trim(), proofInput.value.replace(/\r\n/g, '\n'), fetchText)))
    }
    const proof = proofInput.value.trim() ? parse(proofInput.value) : null
    if (proof && !proof.ok) return proofOutput.replaceChildren(el('p', { class: 'verdict verdict-invalid', 'data-outcome': 'failed' }, `The proof is ${proof.message}`))
    setText(proofOutput, 'Checking…')
    const verdict = await checkInclusion(registry, (receipt ?? {}) as Record<string, unknown>, proof ? (proof.value as Proof) : null, fetchJson)
    proofOutput.replaceChildren(inclusionView(verdict))
  })
}

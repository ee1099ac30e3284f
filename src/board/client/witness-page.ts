// The witness page's behaviour: verify each receipt the server listed (its JSON is on the page)
// against /v5/keys, and mark its row valid or invalid with the reason.
import { loadKeys } from './verify-page'
import { verifyReceipt } from './verify-core'
import { el } from './dom'

export async function startWitnessPage(): Promise<void> {
  const blocks = [...document.querySelectorAll<HTMLElement>('pre[data-receipt]')]
  if (!blocks.length) return
  const registry = await loadKeys(document.getElementById('witness-keys'))
  if (!registry) return
  for (const block of blocks) {
    const cell = document.querySelector<HTMLElement>(`td[data-verdict="${block.dataset.receipt}"]`)
    if (!cell) continue
    let receipt: unknown
    try {
      receipt = JSON.parse(block.textContent ?? '')
    } catch {
      receipt = null
    }
    const verdict = await verifyReceipt(registry, receipt, Date.now())
    const ok = verdict.valid && verdict.type === 'witness_fields'
    cell.dataset.valid = String(ok)
    cell.replaceChildren(el('span', { class: ok ? 'ok' : 'warn' }, ok ? `valid (${verdict.keyId})` : `invalid: ${verdict.valid ? 'not a witness receipt' : verdict.reason}`))
  }
}

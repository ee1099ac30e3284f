// The board's filter box (shown only when this script runs): every word typed must occur in a
// tile's MIC, name, country, region, time zone or state; regions left empty are hidden.
import { byId, setText } from './dom'

export function startFilter(): { apply: () => void } {
  const box = byId('filter-box')
  const input = byId<HTMLInputElement>('filter')
  if (!box || !input) return { apply: () => {} }
  box.hidden = false
  const count = byId('filter-count')
  const apply = () => {
    const terms = input.value.trim().toLowerCase().split(/\s+/).filter(Boolean)
    const tiles = [...document.querySelectorAll<HTMLElement>('li.tile[data-mic]')]
    let shown = 0
    for (const tile of tiles) {
      const match = terms.every((term) => (tile.dataset.search ?? '').includes(term))
      tile.hidden = !match
      if (match) shown++
    }
    for (const section of document.querySelectorAll<HTMLElement>('section.region')) section.hidden = !section.querySelector('li.tile:not([hidden])')
    setText(count, terms.length ? `${shown} of ${tiles.length} venues shown` : '')
  }
  input.addEventListener('input', apply)
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && input.value) {
      input.value = ''
      apply()
    }
  })
  return { apply }
}

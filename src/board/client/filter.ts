// The board's filters (offered only when this script runs): the count badges become buttons that
// show one state only, and the filter box keeps tiles that match every word typed — a state word
// matches the state exactly, any other word the MIC, name, country, region or time zone
// (present.ts matchesWords). Both together: a tile must pass each. Regions left empty are
// hidden; each region's count says how many of its venues are shown while a filter is on.
import { matchesWords } from '../present'
import { byId, el, setText } from './dom'

export function startFilter(): { apply: () => void } {
  const box = byId('filter-box')
  const input = byId<HTMLInputElement>('filter')
  if (!box || !input) return { apply: () => {} }
  box.hidden = false
  const count = byId('filter-count')
  let state: string | null = null
  const buttons: HTMLButtonElement[] = []

  const apply = () => {
    const words = input.value.trim().toLowerCase().split(/\s+/).filter(Boolean)
    const filtering = words.length > 0 || state !== null
    const tiles = [...document.querySelectorAll<HTMLElement>('li.tile[data-mic]')]
    let shown = 0
    for (const tile of tiles) {
      const status = tile.dataset.status ?? ''
      const match = (state === null || status === state) && matchesWords(words, status, tile.dataset.search ?? '')
      tile.hidden = !match
      if (match) shown++
    }
    for (const section of document.querySelectorAll<HTMLElement>('section.region')) {
      const inRegion = section.querySelectorAll('li.tile[data-mic]').length
      const visible = section.querySelectorAll('li.tile[data-mic]:not([hidden])').length
      section.hidden = visible === 0
      setText(section.querySelector('.region-count'), filtering ? `(${visible} of ${inRegion} shown)` : `(${inRegion})`)
    }
    for (const button of buttons) button.setAttribute('aria-pressed', String(button.dataset.filterState === state))
    const which = state ? `${state} only` : ''
    setText(count, filtering ? `${shown} of ${tiles.length} venues shown${which ? ` (${which})` : ''}` : '')
  }

  // Each count becomes a toggle: pressed, the board shows that state only; pressed again, all.
  for (const item of document.querySelectorAll<HTMLElement>('ul.counts li.count')) {
    const status = item.querySelector<HTMLElement>('[data-count]')?.dataset.count
    if (!status) continue
    const button = el('button', { type: 'button', class: 'count-filter', 'aria-pressed': 'false', 'data-filter-state': status, title: `Show only ${status} venues` }, ...item.childNodes)
    item.replaceChildren(button)
    button.addEventListener('click', () => {
      state = state === status ? null : status
      apply()
    })
    buttons.push(button)
  }

  input.addEventListener('input', apply)
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && (input.value || state)) {
      input.value = ''
      state = null
      apply()
    }
  })
  return { apply }
}

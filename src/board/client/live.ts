// Keeps the board's tiles (and a venue page's tile) live: polls /v5/board, rewrites each tile's
// fields with the same wording the server used (present.ts), ticks local clocks and countdowns
// every second on the server's clock, announces state changes, and says so when updates stop.
import type { BoardSummary, BoardVenue } from '../board-types'
import { searchText, statusClass, statusRank, tileFields } from '../present'
import { announce, byId, setText } from './dom'

export const POLL_MS = 2000
const STALE_AFTER_MS = 10_000
// A poll that gets no answer is given up: otherwise a connection that went quiet (a sleeping
// laptop, a proxy that lost it) holds the one poll in flight and the page never asks again.
const POLL_TIMEOUT_MS = 5000

export function startLiveBoard(onUpdate: () => void = () => {}): void {
  const tiles = new Map<string, HTMLElement>()
  for (const tile of document.querySelectorAll<HTMLElement>('li.tile[data-mic]')) tiles.set(tile.dataset.mic!, tile)
  if (!tiles.size) return
  const venues = new Map<string, BoardVenue>()
  // The server rendered the page at <body data-at>: that is the first update, so a page whose
  // polls never succeed says so too. Server clock minus this browser's: countdowns run on the
  // service's time.
  const renderedAt = Date.parse(document.body.dataset.at ?? '')
  let offset = Number.isFinite(renderedAt) ? renderedAt - Date.now() : 0
  let lastUpdate = Date.now()
  let lastAt = Number.isFinite(renderedAt) ? new Date(renderedAt).toISOString() : new Date().toISOString()
  let timer: number | undefined
  let inFlight = false
  let updated = false
  const live = byId('board-live')

  const field = (tile: HTMLElement, name: string) => tile.querySelector<HTMLElement>(`[data-field="${name}"]`)

  function render(tile: HTMLElement, venue: BoardVenue, now: number, full: boolean): void {
    const fields = tileFields(venue, now)
    setText(field(tile, 'clock'), fields.clock)
    setText(field(tile, 'countdown'), fields.countdown)
    if (!full) return
    tile.dataset.status = venue.status
    tile.dataset.search = searchText(venue)
    tile.className = `tile ${statusClass(venue.status)}`
    setText(field(tile, 'status'), fields.status)
    setText(field(tile, 'phase'), fields.phase)
    setText(field(tile, 'offset'), fields.offset)
    setText(field(tile, 'next'), fields.next)
    const countdown = field(tile, 'countdown')
    if (countdown) countdown.dataset.at = fields.countdownAt
    for (const name of ['reason', 'special'] as const) {
      const node = field(tile, name)
      setText(node, fields[name])
      if (node) node.hidden = !fields[name]
    }
  }

  function apply(summary: BoardSummary): void {
    const now = Date.parse(summary.at)
    offset = now - Date.now()
    lastUpdate = Date.now()
    lastAt = summary.at
    updated = true
    document.body.dataset.at = summary.at
    const at = document.querySelector<HTMLElement>('[data-field="at"]')
    if (at) {
      at.setAttribute('datetime', summary.at)
      setText(at, `${summary.at.slice(11, 19)} UTC`)
    }
    const changes: string[] = []
    for (const venue of summary.venues) {
      const tile = tiles.get(venue.mic)
      if (!tile) continue
      if (tile.dataset.status !== venue.status) changes.push(`${venue.mic} is now ${venue.status}`)
      venues.set(venue.mic, venue)
      render(tile, venue, now, true)
    }
    for (const [status, count] of Object.entries(summary.counts)) setText(document.querySelector(`[data-count="${status}"]`), String(count))
    if (changes.length) {
      reorder()
      announce(changes.join('. '))
    }
    document.body.dataset.updates = String(Number(document.body.dataset.updates ?? 0) + 1)
    onUpdate()
  }

  /** Keeps each region's tiles in board order (what trades first) as states change; moves only what must move. */
  function reorder(): void {
    for (const list of document.querySelectorAll<HTMLElement>('ul.tiles')) {
      const items = [...list.querySelectorAll<HTMLElement>(':scope > li.tile[data-mic]')]
      const ordered = items.toSorted((a, b) => statusRank(a.dataset.status ?? '') - statusRank(b.dataset.status ?? '') || Number(a.dataset.order) - Number(b.dataset.order))
      if (ordered.some((item, index) => item !== items[index])) list.append(...ordered)
    }
  }

  async function poll(): Promise<void> {
    // One poll at a time: a tab shown again while a poll is out must not start a second loop.
    if (inFlight) return
    inFlight = true
    window.clearTimeout(timer)
    try {
      const response = await fetch('/v5/board', { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(POLL_TIMEOUT_MS) })
      if (response.ok) apply((await response.json()) as BoardSummary)
    } catch {
      // Offline, the service is down or did not answer in time: the stale notice says so below.
    }
    inFlight = false
    if (!document.hidden) timer = window.setTimeout(poll, POLL_MS)
  }

  function tick(): void {
    const now = Date.now() + offset
    for (const [mic, venue] of venues) render(tiles.get(mic)!, venue, now, false)
    if (!live) return
    const stale = Date.now() - lastUpdate > STALE_AFTER_MS
    // "live" once an update has arrived; "stopped" as soon as none has for a while.
    live.hidden = !stale && !updated
    live.classList.toggle('stale', stale)
    setText(live, stale ? ` Live updates stopped at ${lastAt.slice(11, 19)} UTC: what you see may be out of date.` : ' · live')
  }

  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) void poll()
  })
  window.setInterval(tick, 1000)
  void poll()
}

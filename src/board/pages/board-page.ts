// The board (GET / for a browser): every venue's tile, grouped by region, rendered on the
// server so it reads without JavaScript. The browser script keeps the same fields live from
// /v5/board (data-field names the field, tileFields words it) and runs the filter box.
import { html, SafeHtml } from '../html'
import { boardOrder, regionId, searchText, statusClass, tileFields, STATUS_WORD } from '../present'
import type { Clock } from '../../clock'
import type { MarketDeps } from '../../market/resolve'
import { pageResponse } from '../layout'
import { boardSummary, type BoardSummary, type BoardVenue } from '../summary'

const utcClock = (iso: string) => `${iso.slice(11, 19)} UTC`

/** A venue's tile; `heading` is its heading level where it is placed (h3 under a region, h2 on a venue page). */
export function tile(venue: BoardVenue, now: number, heading: 'h2' | 'h3' = 'h3', order = 0): SafeHtml {
  const fields = tileFields(venue, now)
  return html`<li class="tile ${statusClass(venue.status)}" data-mic="${venue.mic}" data-status="${venue.status}" data-search="${searchText(venue)}" data-order="${String(order)}">
<article aria-labelledby="t-${venue.mic}">
<${new SafeHtml(heading)} id="t-${venue.mic}"><a href="/venue/${venue.mic}"><span class="mic">${venue.mic}</span> <span class="venue-name">${venue.name}</span></a></${new SafeHtml(heading)}>
<p class="state"><span class="badge" data-field="status">${fields.status}</span> <span class="phase" data-field="phase">${fields.phase}</span></p>
<p class="reason" data-field="reason"${fields.reason ? '' : html` hidden`}>${fields.reason}</p>
<p class="special" data-field="special"${fields.special ? '' : html` hidden`}>${fields.special}</p>
<dl class="facts">
<div><dt>Local time</dt><dd><span data-field="clock">${fields.clock}</span> <span class="muted" data-field="offset">${fields.offset}</span></dd></div>
<div><dt>Next</dt><dd><span data-field="next">${fields.next}</span> <span class="countdown" data-field="countdown" data-at="${fields.countdownAt}">${fields.countdown}</span></dd></div>
</dl>
</article>
</li>`
}

/** The instant the tiles show (kept current by the script) and its live or stopped note. */
export const asOf = (at: string) => html`<span id="board-clock">As of <time data-field="at" datetime="${at}">${utcClock(at)}</time></span><span id="board-live" class="live-note" role="status" hidden></span>`

export function boardPageBody(summary: BoardSummary): SafeHtml {
  const now = Date.parse(summary.at)
  const counts = (['OPEN', 'CLOSED', 'HALTED', 'UNKNOWN'] as const).map(
    (status) => html`<li class="count ${statusClass(status)}"><span class="badge">${status}</span> <span data-count="${status}">${summary.counts[status]}</span> <span class="visually-hidden">${STATUS_WORD[status].toLowerCase()}</span></li>`,
  )
  // What trades comes first in each region (the script keeps that order as states change);
  // data-order is the venue list's order, which breaks ties.
  const position = new Map(summary.venues.map((venue, index) => [venue.mic, index]))
  const sections = summary.regions.map((region) => {
    const venues = boardOrder(summary.venues.filter((venue) => venue.region === region))
    return html`<section class="region" aria-labelledby="${regionId(region)}">
<h2 id="${regionId(region)}">${region} <span class="muted region-count" data-total="${String(venues.length)}">(${venues.length})</span></h2>
<ul class="tiles">${venues.map((venue) => tile(venue, now, 'h3', position.get(venue.mic)))}</ul>
</section>`
  })
  return html`<h1>Market board</h1>
<p class="lede">The state every venue's receipt would carry now, ${summary.venue_count} venues. ${asOf(summary.at)}</p>
<ul class="counts" aria-label="Venues by state">${counts}</ul>
<div class="filter" id="filter-box" hidden>
<label for="filter">Filter venues</label>
<input id="filter" type="search" autocomplete="off" spellcheck="false" aria-describedby="filter-help filter-count">
<p id="filter-help" class="muted">By MIC, name, country, region or time zone, e.g. <kbd>Europe</kbd>; a state (<kbd>open</kbd>, <kbd>closed</kbd>, <kbd>halted</kbd>, <kbd>unknown</kbd>) matches the state only. The counts above filter by state too.</p>
<p id="filter-count" class="muted" aria-live="polite"></p>
</div>
<nav class="regions" aria-label="Regions"><ul>${summary.regions.map((region) => html`<li><a href="#${regionId(region)}">${region}</a></li>`)}</ul></nav>
${sections}
<p class="muted">${summary.note} Machine-readable: <a href="/v5/board">/v5/board</a>.</p>
<div id="announcer" class="visually-hidden" role="status" aria-live="polite"></div>`
}

/** The whole board page for a browser at the clock's now. */
export async function boardPage(deps: MarketDeps & { clock: Clock }, headers: Record<string, string> = {}): Promise<Response> {
  const summary = await boardSummary(deps, deps.clock.now())
  return pageResponse({ page: 'board', title: 'Market board', body: boardPageBody(summary), data: { at: summary.at } }, 200, headers)
}

// The venue page (GET /venue/{MIC}): the venue's live tile, today's sessions and phases, the next
// 30 days, the year's holidays by name, clock changes, and where the calendar's dates come from.
import type { CalendarDay } from '../../calendar/days'
import { dayNumber, weekdayOfDayNumber } from '../../calendar/zone'
import { html, type SafeHtml } from '../html'
import { phaseWord } from '../present'
import type { VenueDetails } from '../venue-details'
import { asOf, tile } from './board-page'

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const weekday = (date: string) => WEEKDAYS[weekdayOfDayNumber(dayNumber(date))]
const KIND_WORD: Record<string, string> = {
  regular: 'trading day',
  early_close: 'early close',
  late_open: 'late open',
  special: 'special session',
  holiday: 'holiday',
  weekend: 'weekend',
  provisional: 'provisional (UNKNOWN)',
  unknown: 'unknown',
}
const utcTime = (iso: string) => `${iso.slice(11, 16)} UTC`

function hours(day: Pick<CalendarDay, 'sessions'>): string {
  return day.sessions.length ? day.sessions.map((session) => `${session.open_local}–${session.close_local}`).join(', ') : '—'
}

function todaySection(day: CalendarDay): SafeHtml {
  const sessions = day.sessions.length
    ? html`<table><caption>Sessions (continuous trading)</caption><thead><tr><th scope="col">Opens (local)</th><th scope="col">Closes (local)</th><th scope="col">Opens (UTC)</th><th scope="col">Closes (UTC)</th></tr></thead>
<tbody>${day.sessions.map((s) => html`<tr><td>${s.open_local}</td><td>${s.close_local}</td><td>${utcTime(s.open)}</td><td>${utcTime(s.close)}</td></tr>`)}</tbody></table>`
    : html`<p>No trading today${day.name ? html` (${day.name})` : ''}.</p>`
  const phases =
    day.phases === null
      ? html`<p class="muted">No trading phases are entered for this venue${day.kind === 'provisional' || day.kind === 'unknown' ? ' on this day' : ''}: OPEN is continuous trading, everything else CLOSED.</p>`
      : day.phases.length
        ? html`<table><caption>Phases</caption><thead><tr><th scope="col">Phase</th><th scope="col">From (local)</th><th scope="col">To (local)</th><th scope="col">From (UTC)</th><th scope="col">To (UTC)</th></tr></thead>
<tbody>${day.phases.map((p) => html`<tr><td>${phaseWord(p.phase)}</td><td>${p.from_local}</td><td>${p.to_local}</td><td>${utcTime(p.from)}</td><td>${utcTime(p.to)}</td></tr>`)}</tbody></table>`
        : html``
  return html`<section aria-labelledby="today"><h2 id="today">Today, ${weekday(day.date)} ${day.date} (local)</h2>
<p>${KIND_WORD[day.kind] ?? day.kind}${day.name ? html`: <strong>${day.name}</strong>` : ''}${day.provisional_why ? html` — waits for: ${day.provisional_why}` : ''}${day.basis ? html` <span class="muted">(basis: ${day.basis})</span>` : ''}</p>
${sessions}
${phases}
</section>`
}

function upcomingSection(days: CalendarDay[]): SafeHtml {
  return html`<section aria-labelledby="upcoming"><h2 id="upcoming">The next ${days.length} days</h2>
<div class="scroll" tabindex="0" role="region" aria-label="Table of the next ${days.length} days"><table><thead><tr><th scope="col">Date</th><th scope="col">Day</th><th scope="col">Kind</th><th scope="col">Name</th><th scope="col">Hours (local)</th><th scope="col">Basis</th></tr></thead>
<tbody>${days.map((day) => html`<tr class="kind-${day.kind}"><td>${day.date}</td><td>${weekday(day.date)}</td><td>${KIND_WORD[day.kind] ?? day.kind}</td><td>${day.name ?? ''}${day.provisional_why ? html` <span class="muted">(${day.provisional_why})</span>` : ''}</td><td>${hours(day)}</td><td>${day.basis ?? '—'}</td></tr>`)}</tbody></table></div>
</section>`
}

function holidaySection(details: VenueDetails): SafeHtml {
  const body = details.file?.always_open
    ? html`<p>This venue trades around the clock: it has no holidays.</p>`
    : details.holidays.length
      ? html`<div class="scroll" tabindex="0" role="region" aria-label="Table of holidays and special days in ${details.year}"><table><thead><tr><th scope="col">Date</th><th scope="col">Day</th><th scope="col">Kind</th><th scope="col">Name</th><th scope="col">Hours (local)</th><th scope="col">Basis</th></tr></thead>
<tbody>${details.holidays.map((day) => html`<tr class="kind-${day.kind}"><td>${day.date}</td><td>${weekday(day.date)}</td><td>${KIND_WORD[day.kind] ?? day.kind}</td><td>${day.name ?? ''}${day.provisional_why ? html` <span class="muted">(${day.provisional_why})</span>` : ''}</td><td>${hours(day)}</td><td>${day.basis ?? '—'}</td></tr>`)}</tbody></table></div>`
      : html`<p>No holidays or special days are entered for ${details.year}${details.file ? '' : ' (no calendar is loaded)'}.</p>`
  return html`<section aria-labelledby="holidays"><h2 id="holidays">Holidays and special days in ${details.year}</h2>${body}</section>`
}

function dstSection(details: VenueDetails): SafeHtml {
  const { dst, venue } = details
  const list = dst.changes.length
    ? html`<ul>${dst.changes.map((change) => html`<li><time datetime="${change.at}">${change.at.slice(0, 10)} ${utcTime(change.at)}</time>: ${change.from} → ${change.to}</li>`)}</ul>
<p class="muted">Session times are local wall times: when the offset changes, their UTC times move and the local times stay.</p>`
    : html`<p>${venue.timezone} keeps ${dst.offset_now} from ${dst.window.from} to ${dst.window.to}: no clock change.</p>`
  return html`<section aria-labelledby="dst"><h2 id="dst">Clock changes (${venue.timezone})</h2>
${dst.note ? html`<p class="notice">${dst.note}</p>` : ''}
${list}
</section>`
}

function dataSection(details: VenueDetails): SafeHtml {
  const file = details.file
  if (!file) return html`<section aria-labelledby="data"><h2 id="data">Calendar data</h2><p class="notice">No valid calendar is loaded: ${details.unavailable ?? 'unavailable'}. Every state is UNKNOWN until one is.</p></section>`
  const basis = Object.entries(file.basis ?? {})
  const exceptions = Object.entries(file.basis_exceptions ?? {})
  const provisional = Object.entries(file.provisional ?? {})
  return html`<section aria-labelledby="data"><h2 id="data">Calendar data</h2>
<dl class="facts">
<div><dt>data_version</dt><dd><code>${file.data_version}</code> (schema ${file.schema_version})</dd></div>
<div><dt>Coverage</dt><dd>${file.always_open ? 'no horizon (24/7)' : file.coverage ? `${file.coverage.from} to ${file.coverage.to}` : '—'}</dd></div>
<div><dt>Last changed</dt><dd>${lastChanged(details)}</dd></div>
</dl>
<h3>Basis by year</h3>
${basis.length ? html`<table><thead><tr><th scope="col">Year</th><th scope="col">Basis</th></tr></thead><tbody>${basis.map(([year, value]) => html`<tr><td>${year}</td><td>${value}</td></tr>`)}</tbody></table>` : html`<p>${file.always_open ? '24/7: no dates are entered.' : 'Every entered date is published (a version 1 file).'}</p>`}
${exceptions.length ? html`<h3>Dates with another basis</h3><ul>${exceptions.map(([date, value]) => html`<li>${date}: ${value}</li>`)}</ul>` : ''}
${provisional.length ? html`<h3>Provisional dates (UNKNOWN until confirmed)</h3><ul>${provisional.map(([date, entry]) => html`<li>${date}: ${entry.name} — ${entry.why}</li>`)}</ul>` : ''}
<h3>Sources</h3>
<ul class="sources">${file.sources.map((source) => html`<li><strong>${source.covers}</strong>: ${source.url ? html`<a href="${source.url}" rel="noopener noreferrer">${source.publisher}</a>` : source.publisher}${source.note ? html`<br><span class="muted">${source.note}</span>` : ''}</li>`)}</ul>
${file.notes ? html`<h3>Notes</h3><p>${file.notes}</p>` : ''}
<p class="muted">The same data as JSON: <a href="/v5/calendar?mic=${details.venue.mic}">/v5/calendar</a>, <a href="/v5/holidays?mic=${details.venue.mic}">/v5/holidays</a>, <a href="/v5/schedule?mic=${details.venue.mic}">/v5/schedule</a>; as a calendar feed: <a href="/v5/calendar/${details.venue.mic}.ics">${details.venue.mic}.ics</a>.</p>
</section>`
}

function lastChanged(details: VenueDetails): SafeHtml {
  const { last, loaded_at } = details.changed
  const list = html`<a href="/v5/calendar/changes?mic=${details.venue.mic}">changes</a>, <a href="/v5/calendar/changes.atom?mic=${details.venue.mic}">feed</a>`
  if (last) return html`<time datetime="${last.at}">${last.at.slice(0, 16).replace('T', ' ')} UTC</time>: ${last.day_count} date${last.day_count === 1 ? '' : 's'} changed, data_version ${last.data_version_before ?? 'none'} → ${last.data_version_after ?? 'none'} (${last.trigger}) · ${list}`
  return html`no change recorded${loaded_at ? html` since this file was loaded (<time datetime="${loaded_at}">${loaded_at.slice(0, 16).replace('T', ' ')} UTC</time>)` : ''} · ${list}`
}

export function venuePageBody(details: VenueDetails, now: number): SafeHtml {
  const { venue } = details
  return html`<p class="crumbs"><a href="/#t-${venue.mic}">← Board</a></p>
<h1><span class="mic">${venue.mic}</span> ${venue.name}</h1>
<p class="lede">${venue.country} · ${venue.region} · ${venue.timezone}</p>
<p>${asOf(new Date(now).toISOString())}</p>
<ul class="tiles single">${tile(venue, now, 'h2')}</ul>
${todaySection(details.days[0]!)}
${upcomingSection(details.days)}
${holidaySection(details)}
${dstSection(details)}
${dataSection(details)}
<div id="announcer" class="visually-hidden" role="status" aria-live="polite"></div>`
}

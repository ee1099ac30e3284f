import { makeTestApp } from './test/helpers/app'
const t = makeTestApp({ now: '2026-11-25T12:00:00.000Z' })
for (const p of ['/v5/calendar?mic=XLON&from=2026-12-20&to=2026-12-28', '/v5/holidays/upcoming?days=10', '/v5/calendar?from=2026-02-30', '/v5/calendar?from=2026-01-01&to=2027-01-02', '/v5/holidays?year=2027&mic=XPAR', '/v5/calendar/XLON', '/v5/calendar/NOPE.ics', '/v5/calendar?mic=XSHG&from=2027-02-08&to=2027-02-09'] ) {
  const r = await t.request(p); console.log(p, r.status, (await r.text()).slice(0, 1500))
}
const r = await t.request('/v5/calendar/XPAR.ics'); const body = await r.text(); console.log(r.status, [...r.headers.entries()], body.slice(0, 2500), body.length)
const t0 = performance.now(); const a = await t.request('/v5/calendar/all.ics'); const ab = await a.text(); console.log('all', a.status, ab.length, performance.now() - t0, 'ms')
const t1 = performance.now(); await (await t.request('/v5/calendar/all.ics')).text(); console.log('cached', performance.now() - t1)
const t2 = performance.now(); await (await t.request('/v5/holidays?year=2027')).text(); console.log('holidays 2027', performance.now() - t2)

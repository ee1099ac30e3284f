// Preloaded into a service process a test starts with a clock offset (startService's
// clockOffsetMs): the process's clock runs OPENBELL_TEST_CLOCK_OFFSET_MS ahead of the host's, for
// Date.now() and new Date() alike (the service reads time through Date.now, see src/clock.ts), so
// a test that counts per UTC day can place its run far from midnight whenever it is run.
const offset = Number(process.env.OPENBELL_TEST_CLOCK_OFFSET_MS ?? 0)

if (Number.isFinite(offset) && offset !== 0) {
  const HostDate = Date
  const hostNow = HostDate.now.bind(HostDate)
  const now = () => hostNow() + offset
  globalThis.Date = new Proxy(HostDate, {
    construct: (target, args, newTarget) => Reflect.construct(target, args.length ? args : [now()], newTarget),
    apply: () => new HostDate(now()).toString(),
    get: (target, property, receiver) => (property === 'now' ? now : Reflect.get(target, property, receiver)),
  })
}

// The integrator appends in steps that end on an entry-bundle boundary (at most 256 entries, so
// one step never holds the event loop for long) and, inside one tick, goes on until the last
// committed row. Watched on the real SQLite tile store, whose integrate() is only observed.
import { expect, test } from 'bun:test'
import { issueKey } from '../../src/accounts/keys'
import { TILE_WIDTH } from '../../src/transparency/tiles'
import { makeTestApp } from '../helpers/app'

test('integration steps stop at bundle boundaries and reach the last committed row', async () => {
  const harness = makeTestApp()
  const key = (await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })).key
  const tiles = harness.deps.transparency.tiles
  const steps: { from: number; to: number; partialBundle: number | null }[] = []
  const integrate = tiles.integrate.bind(tiles)
  tiles.integrate = async (fromSize, step) => {
    const bundle = step.partials.find((tile) => tile.level < 0)
    steps.push({ from: fromSize, to: step.size, partialBundle: bundle ? bundle.width : null })
    return integrate(fromSize, step)
  }
  const answer = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const response = await harness.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })
      expect(response.status).toBe(200)
    }
    await harness.deps.audit.flush()
  }

  await answer(40)
  expect(await harness.deps.transparency.integrator.tick()).toBe(40)
  expect(steps).toEqual([{ from: 0, to: 40, partialBundle: 40 }])

  steps.length = 0
  await answer(600)
  expect(await harness.deps.transparency.integrator.tick()).toBe(600)
  // 40 → 256 → 512 → 640: only the last step leaves a partial bundle.
  expect(steps).toEqual([
    { from: 40, to: 256, partialBundle: null },
    { from: 256, to: 512, partialBundle: null },
    { from: 512, to: 640, partialBundle: 128 },
  ])
  for (const step of steps) expect(step.to - step.from).toBeLessThanOrEqual(TILE_WIDTH)
  expect((await harness.request('/log/tile/entries/001')).status).toBe(200)
  expect((await harness.request('/log/tile/entries/002.p/128')).status).toBe(200)
})

// /v5/health names the node's storage: backend, node id, the jobs whose lease it holds, and
// whether it reaches its database (unsigned extras; the signed fields are unchanged).
import { describe, expect, test } from 'bun:test'
import { makeTestApp } from '../helpers/app'

describe('/v5/health storage', () => {
  test('SQLite: backend, node id, and the jobs this node leads', async () => {
    const { json, deps, clock } = makeTestApp({ env: { NODE_ID: 'node-a' } })
    expect((await json('/v5/health')).body.storage).toEqual({ backend: 'sqlite', node_id: 'node-a', leader_of: [], status: 'ok' })
    const stop = deps.node.leadership.run('audit-sealer', () => () => {})
    await deps.node.leadership.tick()
    clock.advance(1000) // the health answer is signed at most once a second
    const { body } = await json('/v5/health')
    expect(body.storage.leader_of).toEqual(['audit-sealer'])
    expect(body.status).toBe('OK')
    await stop()
  })

  test('the default node id is the host name and the process id', () => {
    const { deps } = makeTestApp()
    expect(deps.node.id).toEndWith(`-${process.pid}`)
  })
})

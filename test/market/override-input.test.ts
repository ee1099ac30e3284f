// POST /v5/admin/overrides refuses input whose echoed, stored and signed forms would differ,
// and a full disk answers 503 STORAGE_FULL with nothing saved.
import { describe, expect, test } from 'bun:test'
import { makeTestApp, TEST_ADMIN_KEY } from '../helpers/app'
import { SUPPORTED_MICS } from '../../src/calendar/mics'

const admin = { 'x-oracle-key': TEST_ADMIN_KEY, 'content-type': 'application/json' }
const NOW = '2026-03-10T15:00:00.000Z'
const expires = '2026-03-10T17:00:00.000Z'

describe('override JSON', () => {
  test('a reason with a lone surrogate is refused (400 INVALID_BODY naming reason) and nothing is stored', async () => {
    const harness = makeTestApp({ now: NOW })
    const body = `{"mic":"XNYS","status":"HALTED","reason":"outage \\ud800 notice","expires_at":"${expires}"}`
    const response = await harness.json('/v5/admin/overrides', { method: 'POST', headers: admin, body })
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ error: 'INVALID_BODY', field: 'reason' })
    expect((await harness.json('/v5/admin/overrides', { headers: admin })).body.overrides).toEqual([])
    // A proper pair (an emoji written as two escapes) is fine.
    const ok = await harness.json('/v5/admin/overrides', { method: 'POST', headers: admin, body: body.replace('\\ud800', '\\ud83d\\udea8') })
    expect(ok.status).toBe(201)
    expect(ok.body.override.reason).toBe('outage 🚨 notice')
  })

  test('a duplicate member name is refused (400 INVALID_BODY naming it), not last-wins', async () => {
    const harness = makeTestApp({ now: NOW })
    const body = `{"mic":"XNYS","status":"OPEN","reason":"r","expires_at":"${expires}","status":"HALTED"}`
    const response = await harness.json('/v5/admin/overrides', { method: 'POST', headers: admin, body })
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ error: 'INVALID_BODY', field: 'status' })
    expect((await harness.json('/v5/admin/overrides', { headers: admin })).body.overrides).toEqual([])
  })
})

describe('disk full', () => {
  test('an override on a full database answers 503 STORAGE_FULL and is not in force', async () => {
    const harness = makeTestApp({ now: NOW, fileDatabase: true })
    // SQLite's own "database or disk is full" (SQLITE_FULL): cap the file at its current size.
    const pages = (harness.db.query('PRAGMA page_count').get() as { page_count: number }).page_count
    harness.db.run(`PRAGMA max_page_count = ${pages}`)
    const reason = 'y'.repeat(500)
    let response = await harness.json('/v5/admin/overrides', { method: 'POST', headers: admin, body: JSON.stringify({ mic: 'XNYS', status: 'HALTED', reason, expires_at: expires }) })
    // The table may still have room for one row in its existing page: fill until it is full.
    for (const mic of SUPPORTED_MICS.filter((m) => m !== 'XNYS')) {
      if (response.status === 503) break
      response = await harness.json('/v5/admin/overrides', { method: 'POST', headers: admin, body: JSON.stringify({ mic, status: 'HALTED', reason, expires_at: expires }) })
    }
    expect(response.status).toBe(503)
    expect(response.body.error).toBe('STORAGE_FULL')
    expect(response.body.message).toContain('NOT saved')
    const stored = (await harness.json('/v5/admin/overrides', { headers: admin })).body.overrides.length
    // Every 201 before it is in force; the refused one is not.
    expect(harness.log.lines.filter((line) => line.msg === 'override set')).toHaveLength(stored)
    expect(harness.log.lines.some((line) => line.msg === 'unhandled error')).toBe(false)
  })
})

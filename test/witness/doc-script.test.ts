// docs/witness.md's make-checkpoint.ts, run as published: what it prints is accepted by the
// witness, its key file is reused, and the kid and signature check out independently.
import { describe, expect, test } from 'bun:test'
import * as ed from '@noble/ed25519'
import { createHash } from 'node:crypto'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { makeTestApp, tempDir } from '../helpers/app'
import { entryHash, jcs, postJson } from '../helpers/checkpoints'

const doc = readFileSync(resolve(import.meta.dir, '../../docs/witness.md'), 'utf8')
const script = /<!-- make-checkpoint\.ts:start -->\n```ts\n([\s\S]*?)```\n<!-- make-checkpoint\.ts:end -->/.exec(doc)![1]!

describe('docs/witness.md make-checkpoint.ts', () => {
  test('prints a body the witness stores (201), reuses its key file, and signs what the spec says', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'make-checkpoint.ts'), script)
    const make = (...args: string[]) => {
      const child = Bun.spawnSync(['bun', 'make-checkpoint.ts', ...args], { cwd: dir, stdout: 'pipe', stderr: 'pipe' })
      if (child.exitCode !== 0) throw new Error(child.stderr.toString())
      return JSON.parse(child.stdout.toString())
    }
    const first = make('run-42', '17', entryHash(17))
    expect((statSync(join(dir, 'witness-key.pem')).mode & 0o777).toString(8)).toBe('600')
    const second = make('run-42', '18', entryHash(18))
    expect(second.checkpoint.kid).toBe(first.checkpoint.kid)

    // Independent of the script: the kid is the thumbprint of the JWK, the signature verifies.
    const publicKey = new Uint8Array(Buffer.from(first.public_key_jwk.x, 'base64url'))
    const thumbprint = createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${first.public_key_jwk.x}"}`).digest('base64url')
    expect(first.checkpoint.kid).toBe(thumbprint)
    const { sig, ...unsigned } = first.checkpoint
    expect(ed.verify(new Uint8Array(Buffer.from(sig, 'base64url')), new TextEncoder().encode(jcs(unsigned)), publicKey)).toBe(true)

    const harness = makeTestApp()
    for (const body of [first, second]) {
      const response = await harness.request('/v1/witness/checkpoints', postJson(body))
      expect(response.status).toBe(201)
      const receipt = (await response.json()) as Record<string, string>
      expect(receipt.kid).toBe(first.checkpoint.kid)
      expect(receipt.count).toBe(String(body.checkpoint.count))
    }
    const page = await harness.json(`/v1/witness/checkpoints?kid=${first.checkpoint.kid}&session_id=run-42`)
    expect(page.body.receipts.map((r: { count: string }) => r.count)).toEqual(['17', '18'])
  }, 20_000)
})

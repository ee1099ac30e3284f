// The vectors of the verifier package's cases (packages/verify/test/cases.ts), read from the
// repository: the published ones under test/fixtures/transparency and packages/verify/test/vectors.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Vectors } from '../../packages/verify/test/cases'

const ROOT = join(import.meta.dir, '../..')
const json = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'))

export function publishedVectors(): Vectors {
  const notes = json('test/fixtures/transparency/note-vectors.json')
  return {
    notes,
    merkle: json('test/fixtures/transparency/merkle-vectors.json'),
    tessera: { vkey: notes.tessera.vkey, checkpoints: Array.from({ length: 16 }, (_, size) => readFileSync(join(ROOT, `test/fixtures/transparency/tessera-log/checkpoint.${size}`), 'utf8')) },
    torchwood: json('packages/verify/test/vectors/torchwood-mldsa.json'),
    acvp: json('packages/verify/test/vectors/fips204-acvp-keygen.json'),
  }
}

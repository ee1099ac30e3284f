// The vectors of the verifier package's cases (packages/verify/test/cases.ts), read from the
// repository: the published ones under test/fixtures/transparency and packages/verify/test/vectors
// (the Wycheproof subsets gzipped).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { Vectors } from '../../packages/verify/test/cases'

const ROOT = join(import.meta.dir, '../..')
const json = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'))
const gzippedJson = (path: string) => JSON.parse(gunzipSync(readFileSync(join(ROOT, path))).toString('utf8'))
const WYCHEPROOF = 'packages/verify/test/vectors/wycheproof'

/** C2SP Wycheproof's ML-DSA-44 verify and sign-from-seed vectors (the stored subsets: their README). */
export function wycheproofMlDsa44(): { verify: any; signSeed: any } {
  return { verify: gzippedJson(`${WYCHEPROOF}/mldsa_44_verify_test.subset.json.gz`), signSeed: gzippedJson(`${WYCHEPROOF}/mldsa_44_sign_seed_test.subset.json.gz`) }
}

export function publishedVectors(): Vectors {
  const notes = json('test/fixtures/transparency/note-vectors.json')
  return {
    notes,
    merkle: json('test/fixtures/transparency/merkle-vectors.json'),
    tessera: { vkey: notes.tessera.vkey, checkpoints: Array.from({ length: 16 }, (_, size) => readFileSync(join(ROOT, `test/fixtures/transparency/tessera-log/checkpoint.${size}`), 'utf8')) },
    torchwood: json('packages/verify/test/vectors/torchwood-mldsa.json'),
    acvp: json('packages/verify/test/vectors/fips204-acvp-keygen.json'),
    wycheproof: wycheproofMlDsa44(),
  }
}

// The package's cases in Node (20 and later), on the compiled output (.test-build, made by
// `tsc -p tsconfig.test.json`). Vectors: the file named by OPENBELL_VERIFY_VECTORS (the
// repository's test run writes the published ones and a running service's there), else the
// published vectors of the repository this package lives in.
import { test } from 'node:test'
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'
import { cases } from '../.test-build/test/cases.js'

const here = dirname(fileURLToPath(import.meta.url))
const repo = join(here, '../../..')
const json = (path) => JSON.parse(readFileSync(path, 'utf8'))
const gzippedJson = (path) => JSON.parse(gunzipSync(readFileSync(path)).toString('utf8'))

function published() {
  const notes = json(join(repo, 'test/fixtures/transparency/note-vectors.json'))
  return {
    notes,
    merkle: json(join(repo, 'test/fixtures/transparency/merkle-vectors.json')),
    tessera: { vkey: notes.tessera.vkey, checkpoints: Array.from({ length: 16 }, (_, size) => readFileSync(join(repo, `test/fixtures/transparency/tessera-log/checkpoint.${size}`), 'utf8')) },
    torchwood: json(join(here, 'vectors/torchwood-mldsa.json')),
    acvp: json(join(here, 'vectors/fips204-acvp-keygen.json')),
    wycheproof: {
      verify: gzippedJson(join(here, 'vectors/wycheproof/mldsa_44_verify_test.subset.json.gz')),
      signSeed: gzippedJson(join(here, 'vectors/wycheproof/mldsa_44_sign_seed_test.subset.json.gz')),
    },
  }
}

const vectors = process.env.OPENBELL_VERIFY_VECTORS ? json(process.env.OPENBELL_VERIFY_VECTORS) : published()
for (const { name, run } of cases(vectors)) test(name, run)

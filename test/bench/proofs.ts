// `bun test/bench/proofs.ts`: what the post-quantum signatures and the proofs cost. Signing and
// verifying ML-DSA-44 natively (the service) and with @noble/post-quantum (the verifier package);
// a checkpoint published with and without the ML-DSA-44 lines (the log's signature and the own
// witness's cosignature, as the integrator does it every interval); and the package's checks of a
// receipt and of a tlog-proof. Prints one line per figure with the load average.
import { randomBytes } from 'node:crypto'
import { loadavg } from 'node:os'
import { verifyReceiptProof, verifySigned } from '@openbell/verify'
import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js'
import { MlDsaCosigner } from '../../src/transparency/ml-dsa'
import { checkpointText } from '../../src/transparency/checkpoint'
import { logKeys } from '../../src/transparency/keys'
import { removeTempDirs, testSigner } from '../helpers/app'
import { serviceVectors } from '../helpers/signed-vectors'

function timePer(iterations: number, work: (i: number) => void): number {
  for (let i = 0; i < Math.min(5, iterations); i++) work(i)
  const start = performance.now()
  for (let i = 0; i < iterations; i++) work(i)
  return (performance.now() - start) / iterations
}
const ms = (value: number) => `${value.toFixed(3)} ms`

const seed = new Uint8Array(randomBytes(32))
const cosigner = new MlDsaCosigner('bench.example/w', seed)
const text = checkpointText('bench.example/log', 123456, new Uint8Array(randomBytes(32)))
const noble = ml_dsa44.keygen(seed)
const message = new Uint8Array(randomBytes(120))
const nobleSignature = ml_dsa44.sign(message, noble.secretKey)
console.log(`load average ${loadavg().map((n) => n.toFixed(1)).join(' ')}`)
console.log(`ML-DSA-44 cosignature line, native (BoringSSL): ${ms(timePer(200, () => cosigner.cosign(text, 1_764_000_000)))}`)
console.log(`ML-DSA-44 sign, @noble/post-quantum: ${ms(timePer(20, () => ml_dsa44.sign(message, noble.secretKey)))}`)
console.log(`ML-DSA-44 verify, @noble/post-quantum: ${ms(timePer(50, () => ml_dsa44.verify(nobleSignature, message, noble.publicKey)))}`)

const keys = logKeys(testSigner(), 'bench.example/log', 'bench.example/witness')!
const ed25519Only = timePer(500, (i) => keys.note.sign(text) + keys.witness.ed25519.cosign(text, 1_764_000_000 + i))
const both = timePer(200, (i) => keys.note.sign(text) + keys.noteMlDsa.cosign(text, 1_764_000_000 + i) + keys.witness.cosign(text, 1_764_000_000 + i))
console.log(`a checkpoint's signatures (log and own witness): Ed25519 only ${ms(ed25519Only)}, with ML-DSA-44 ${ms(both)} (+${ms(both - ed25519Only)} per published checkpoint, at most one a LOG_CHECKPOINT_INTERVAL_MS)`)

const vectors = await serviceVectors()
const live = vectors.objects[0]!
console.log(`@openbell/verify verifySigned (a receipt): ${ms(timePer(200, () => verifySigned(live.object, vectors.keys as never, { now: live.at })))}`)
console.log(`@openbell/verify verifyReceiptProof (a receipt's tlog-proof: 2 log and 2 witness signatures, 2 of them ML-DSA-44): ${ms(timePer(20, () => verifyReceiptProof(vectors.receiptText, vectors.proof, vectors.policy)))}`)
console.log(`a tlog-proof's size: ${vectors.proof.length} bytes; the policy: ${vectors.policy.length} bytes`)
// The service that made the vectors kept its data directory (a temp dir of the test helpers).
removeTempDirs()
process.exit(0)

// A hostile transparency log on loopback, for testing the client that verifies logs
// (`openbell log verify`). Each scenario lives under its own path prefix (`<base>/<scenario>`),
// serving /v5/keys, /log/checkpoint and tiles the way that scenario attacks the client: a
// checkpoint claiming 2^40 entries backed by 16 MiB bundles, a gzip bomb, a slow drip, a silent
// server, redirects to another origin and in circles, terminal escape sequences in an error body
// and in the log's name, answers larger than their format allows. A second server stands for
// "another host": it only counts the requests that reach it.
import { createGzip } from 'node:zlib'
import { generateKeyPairSync } from 'node:crypto'
import { rawPublicKey } from '../../src/crypto/ed25519'
import { leafHash } from '../../src/audit/merkle'
import { checkpointText } from '../../src/transparency/checkpoint'
import { EMPTY_ROOT } from '../../src/transparency/hashing'
import { NoteSigner } from '../../src/transparency/note'
import { encodeBundle, joinHashes, MAX_ENTRY_BYTES, TILE_WIDTH } from '../../src/transparency/tiles'

export const HUGE_SIZE = 2 ** 40
export const ESCAPES = '\u001b]0;owned\u0007\u001b[2J\u001b[1;31mOK: state saved\u001b[0m\r\n\u009b31mred\u202egnp.exe'

export interface HostileLog {
  base: string
  /** The other origin's base URL and the requests that reached it. */
  elsewhere: { base: string; hits: () => number }
  /** Requests per scenario and kind ('bundle', 'tile', 'keys', …). */
  count: (scenario: string, kind: string) => number
  stop: () => Promise<void>
}

/** A gzip stream of `bytes` zero bytes (1 GiB: about 1 MB compressed), made without holding them. */
async function gzipBomb(bytes: number): Promise<Uint8Array> {
  const gzip = createGzip({ level: 9 })
  const chunks: Buffer[] = []
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk))
  const zeros = Buffer.alloc(1 << 20)
  for (let written = 0; written < bytes; written += zeros.length) gzip.write(zeros)
  await new Promise((resolve) => gzip.end(resolve))
  return new Uint8Array(Buffer.concat(chunks))
}

/** One byte at once (so that the headers go out), then one every `everyMs`. */
const slowly = (byte: string, everyMs: number) => {
  let timer: ReturnType<typeof setInterval> | undefined
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(byte))
      timer = setInterval(() => {
        try {
          controller.enqueue(new TextEncoder().encode(byte))
        } catch {
          clearInterval(timer)
        }
      }, everyMs)
    },
    cancel() {
      clearInterval(timer)
    },
  })
}

/** `bytes` bytes as a stream without a Content-Length (chunked). */
const unannounced = (bytes: number) => {
  let sent = 0
  const chunk = new Uint8Array(64 * 1024).fill(0x61)
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) return controller.close()
      controller.enqueue(chunk)
      sent += chunk.length
    },
  })
}

export async function startHostileLog(): Promise<HostileLog> {
  const counts = new Map<string, number>()
  const counted = (scenario: string, kind: string) => counts.set(`${scenario} ${kind}`, (counts.get(`${scenario} ${kind}`) ?? 0) + 1)
  let elsewhereHits = 0
  const elsewhere = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => (elsewhereHits++, new Response('{}')) })

  // The 2^40 claim: every bundle 256 entries of 65,535 bytes (16 MiB), every level-0 tile the
  // hashes of those entries, so that a client goes on reading bundles as long as it is let.
  const entries = Array.from({ length: TILE_WIDTH }, (_, i) => new Uint8Array(MAX_ENTRY_BYTES).fill(i))
  const bigBundle = encodeBundle(entries)
  const bigTile = joinHashes(entries.map((entry) => leafHash(entry)))
  const bomb = await gzipBomb(1 << 30)

  const signers = new Map<string, NoteSigner>()
  const signerFor = (origin: string) => {
    let signer = signers.get(origin)
    if (!signer) {
      const { privateKey } = generateKeyPairSync('ed25519')
      signer = new NoteSigner(origin, privateKey, rawPublicKey(privateKey))
      signers.set(origin, signer)
    }
    return signer
  }
  const originOf = (scenario: string) => (scenario === 'c1-origin' ? 'hostile.test/\u009b2Jlog' : `hostile.test/${scenario}`)
  const keys = (scenario: string) => Response.json({ keys: [], log_note_key: { vkey: signerFor(originOf(scenario)).vkey } })
  const checkpoint = (scenario: string, size: number, root: Uint8Array) => new Response(signerFor(originOf(scenario)).sign(checkpointText(originOf(scenario), size, root)))

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 120,
    fetch(request) {
      const url = new URL(request.url)
      const [, scenario = '', ...rest] = url.pathname.split('/')
      const path = `/${rest.join('/')}`
      const kind = path === '/v5/keys' ? 'keys' : path === '/log/checkpoint' ? 'checkpoint' : path.startsWith('/log/tile/entries/') ? 'bundle' : path.startsWith('/log/tile/') ? 'tile' : path
      counted(scenario, kind)
      const here = `${url.origin}/${scenario}`
      switch (`${scenario} ${kind}`) {
        case 'silent keys':
          return new Promise<Response>(() => {})
        case 'redirect-away keys':
          return Response.redirect(`${elsewhere.url.origin}/v5/keys`, 302)
        case 'redirect-same keys':
          return Response.redirect(`${here}/v5/keys-moved`, 307)
        case 'redirect-same /v5/keys-moved':
          return keys(scenario)
        case 'redirect-loop keys':
          return Response.redirect(`${here}/v5/keys`, 302)
        case 'escape keys':
          return new Response(ESCAPES.repeat(200_000), { status: 500 })
        case 'oversize-keys keys':
          return new Response(new Uint8Array(8 << 20).fill(0x20))
        case 'oversize-chunked keys':
          return new Response(unannounced(64 << 20))
        case 'drip checkpoint':
          return new Response(slowly('x', 500))
        case 'stall checkpoint':
          return new Response(slowly('x', 3_600_000), { headers: { 'content-type': 'text/plain' } })
        case 'huge checkpoint':
          return checkpoint(scenario, HUGE_SIZE, new Uint8Array(32).fill(7))
        case 'huge bundle':
          return new Response(bigBundle)
        case 'huge tile':
          return new Response(bigTile)
        case 'bomb checkpoint':
        case 'oversize-bundle checkpoint':
          return checkpoint(scenario, TILE_WIDTH, new Uint8Array(32).fill(7))
        case 'bomb bundle':
          return new Response(bomb, { headers: { 'content-encoding': 'gzip' } })
        case 'oversize-bundle bundle':
          return new Response(unannounced(20 << 20))
      }
      // Anything else: an honest empty log (the control run, and what a scenario does not attack).
      if (kind === 'keys') return keys(scenario)
      if (kind === 'checkpoint') return checkpoint(scenario, 0, EMPTY_ROOT)
      return new Response('not found', { status: 404 })
    },
  })
  return {
    base: `http://127.0.0.1:${server.port}`,
    elsewhere: { base: elsewhere.url.origin, hits: () => elsewhereHits },
    count: (scenario, kind) => counts.get(`${scenario} ${kind}`) ?? 0,
    stop: async () => {
      await server.stop(true)
      await elsewhere.stop(true)
    },
  }
}

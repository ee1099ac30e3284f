// Several /v5/stream connections of one key opened at once, each read to its end in the
// background, for the tests that check a key's stream limit across workers or nodes.

export interface ReadStream {
  /** Everything received so far. */
  text: string
  ended: boolean
  reader: { cancel(): Promise<void> }
}

/** Opens `count` streams with `open` (each must answer 200) and reads each until it ends. */
export async function openStreams(count: number, open: () => Promise<Response>): Promise<ReadStream[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const response = await open()
      if (response.status !== 200) throw new Error(`the stream answered ${response.status}: ${await response.text()}`)
      const reader = response.body!.getReader()
      const stream: ReadStream = { text: '', ended: false, reader }
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }))
          if (done) break
          stream.text += new TextDecoder().decode(value)
        }
        stream.ended = true
      })()
      return stream
    }),
  )
}

/**
 * The streams that have ended once `expected` have (or 10 s passed), and 1.5 s more, so that
 * one ending too many would show too.
 */
export async function endedStreams(streams: ReadStream[], expected: number): Promise<ReadStream[]> {
  const deadline = Date.now() + 10_000
  while (streams.filter((stream) => stream.ended).length < expected && Date.now() < deadline) await Bun.sleep(50)
  await Bun.sleep(1500)
  return streams.filter((stream) => stream.ended)
}

export async function closeStreams(streams: ReadStream[]): Promise<void> {
  for (const stream of streams) await stream.reader.cancel().catch(() => {})
}

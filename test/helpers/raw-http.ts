// A raw TCP client for HTTP requests that fetch cannot make: a body that stalls, a declared
// length that is never sent, oversized headers. Resolves with everything the server wrote
// before it closed the connection or `waitMs` passed.
export async function rawRequest(port: number, head: string, body: (Uint8Array | string)[] = [], waitMs = 3000): Promise<{ text: string; status: number | null; ms: number }> {
  const started = performance.now()
  let received = ''
  let resolveDone!: () => void
  const done = new Promise<void>((resolve) => (resolveDone = resolve))
  const socket = await Bun.connect({
    hostname: '127.0.0.1',
    port,
    socket: {
      data(_socket, chunk) {
        received += new TextDecoder().decode(chunk)
        // A complete response with a Content-Length is enough; no need to wait for close.
        const split = received.indexOf('\r\n\r\n')
        const length = /content-length: *(\d+)/i.exec(received.slice(0, split))
        if (split >= 0 && length && received.length - split - 4 >= Number(length[1])) resolveDone()
      },
      close() {
        resolveDone()
      },
      error() {
        resolveDone()
      },
    },
  })
  socket.write(head)
  for (const part of body) socket.write(part)
  const timer = setTimeout(resolveDone, waitMs)
  await done
  clearTimeout(timer)
  socket.end()
  const status = /^HTTP\/1\.1 (\d{3})/.exec(received)
  return { text: received, status: status ? Number(status[1]) : null, ms: performance.now() - started }
}

/** The JSON body of a raw response (after the blank line; chunked encoding not handled). */
export function rawJson(text: string): any {
  const body = text.slice(text.indexOf('\r\n\r\n') + 4)
  return JSON.parse(body)
}

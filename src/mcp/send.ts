// Sending a tool-endpoint answer without holding it for a client that does not take it.
//
// Bun.serve has no backpressure API for HTTP responses: `backpressureLimit` and
// `closeOnBackpressureLimit` exist for WebSockets only, and nothing reports how much of a response
// is still unsent. What it does do (measured here, docs/mcp.md "Limits"): it parses no further
// pipelined request of a connection while an answer is unsent, and closes a connection that keeps
// sending requests it does not read the answers of; a plain answer the socket cannot take is kept
// by Bun until its idle timeout (10 s), which every byte the client reads starts again; and a body
// read from a ReadableStream is pulled only as the socket drains. So an answer larger than one
// chunk is sent from a pull stream, and one not taken whole within the deadline errors its stream:
// Bun closes the connection and the answer is freed. What a connection can hold is then at most
// one answer (MCP_MAX_RESPONSE_BYTES) for at most the deadline.

/** Answers up to this size go out as one body (the kernel's socket buffer takes them whole). */
export const STREAM_THRESHOLD_BYTES = 64 * 1024
const CHUNK_BYTES = 64 * 1024

export interface AnswerInit {
  status: number
  headers: Record<string, string>
}

/**
 * The answer as a Response. Above STREAM_THRESHOLD_BYTES it is streamed in chunks that Bun pulls
 * as the client reads; not read whole within `deadlineMs`, the stream fails, the connection is
 * closed and `onDropped` is told. `onSettled` is called once the answer is handed over whole, dropped
 * or cancelled (at once for an answer sent in one piece): the caller's in-flight place is then free.
 */
export function answerResponse(text: string, init: AnswerInit, deadlineMs: number, onDropped: (takenBytes: number, totalBytes: number) => void, onSettled: () => void = () => {}): Response {
  const bytes = Buffer.from(text)
  const headers = { 'content-type': 'application/json; charset=utf-8', ...init.headers }
  if (bytes.byteLength <= STREAM_THRESHOLD_BYTES) {
    // Handed to the socket whole: the kernel's buffer takes it, so the caller's place is free now.
    onSettled()
    return new Response(bytes, { status: init.status, headers })
  }
  let offset = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        timer = setTimeout(() => {
          onDropped(offset, bytes.byteLength)
          onSettled()
          controller.error(new Error('the client did not read the answer in time'))
        }, deadlineMs)
      },
      pull(controller) {
        controller.enqueue(bytes.subarray(offset, offset + CHUNK_BYTES))
        offset += CHUNK_BYTES
        if (offset >= bytes.byteLength) {
          clearTimeout(timer)
          onSettled()
          controller.close()
        }
      },
      cancel() {
        clearTimeout(timer)
        onSettled()
      },
    },
    { highWaterMark: 0 },
  )
  // Bun sends a stream body chunked (a Content-Length given here would be dropped).
  return new Response(stream, { status: init.status, headers })
}

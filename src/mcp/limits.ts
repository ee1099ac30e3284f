// Limits of the tool endpoint against amplification (docs/mcp.md, "Limits"): one anonymous 256 KiB
// batch of 5,577 tools/list calls used to answer 12.7 MB, and 40 connections that sent it without
// reading held about 1 GB.

/** Messages in one batch; a longer batch is refused whole with one -32600 error. */
export const MCP_MAX_BATCH = 100
/** Bytes of one answer (a batch's array included); past it the remaining elements are not run. */
export const MCP_MAX_RESPONSE_BYTES = 2 * 1024 * 1024
/**
 * Room kept for the next element's answer: an element is run only while the answer so far leaves
 * this much of the budget, so nothing is signed or counted and then thrown away. The largest
 * answer of any tool is a few KB (tools/list; docs/mcp.md gives the measured size).
 */
export const MCP_ANSWER_RESERVE_BYTES = 64 * 1024
/**
 * Messages of one caller (a key, or an anonymous address) outstanding at once: from admission
 * until their answer is handed over whole (a streamed answer: until its last chunk is taken, or
 * it is dropped). One full batch, or that many single calls in parallel; what one caller can make
 * the process hold is then one answer's worth (MCP_MAX_RESPONSE_BYTES).
 */
export const MCP_MAX_OUTSTANDING = MCP_MAX_BATCH

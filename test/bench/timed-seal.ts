// Sealing timed in the bench process, with a 1 ms probe timer: the longest gap between its runs
// is the longest the event loop (and so every request) was held up by sealing.
import type { AuditTrail } from '../../src/audit/trail'

export async function timedSeal(trail: AuditTrail): Promise<{ sealed: string[]; sealSeconds: number; longestPauseMs: number }> {
  let lastBeat = performance.now()
  let longestPauseMs = 0
  const probe = setInterval(() => {
    const beat = performance.now()
    longestPauseMs = Math.max(longestPauseMs, beat - lastBeat)
    lastBeat = beat
  }, 1)
  const start = performance.now()
  try {
    const sealed = await trail.sealer.tick()
    const sealSeconds = (performance.now() - start) / 1000
    // One more beat: a pause in the seal's last step (its digest transaction) ends only there.
    await new Promise((resolve) => setTimeout(resolve, 5))
    return { sealed, sealSeconds, longestPauseMs }
  } finally {
    clearInterval(probe)
  }
}

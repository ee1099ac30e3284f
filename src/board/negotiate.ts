// Who gets a page: only a client that names text/html (or XHTML) explicitly, with a weight above
// zero and above any weight it gives application/json. A browser's navigation does
// (`text/html,application/xhtml+xml,…,*/*;q=0.8`); `*/*` alone (curl's default), no Accept, or
// `application/json` keep JSON, so no script that reads the service today gets HTML instead.

interface MediaRange {
  type: string
  q: number
}

function mediaRanges(accept: string): MediaRange[] {
  return accept.split(',').map((part) => {
    const [type = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase())
    let q = 1
    for (const param of params) {
      const match = /^q=([0-9.]+)$/.exec(param)
      if (match) q = Number(match[1])
    }
    return { type, q: Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0 }
  })
}

export function prefersHtml(accept: string | null): boolean {
  if (!accept) return false
  const ranges = mediaRanges(accept)
  const weight = (types: string[]) => Math.max(0, ...ranges.filter((range) => types.includes(range.type)).map((range) => range.q))
  const htmlWeight = weight(['text/html', 'application/xhtml+xml'])
  return htmlWeight > 0 && htmlWeight > weight(['application/json'])
}

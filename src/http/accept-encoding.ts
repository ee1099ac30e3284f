// Whether a client takes a gzip-encoded answer (RFC 9110 12.5.3): `gzip` or `*` with a quality
// above 0; `gzip;q=0` refuses it, and no header at all means no encoding is asked for.

export function acceptsGzip(header: string | null): boolean {
  if (!header) return false
  let star: number | null = null
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((param) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined)
    const quality = q === undefined ? 1 : Number(q)
    if (name.trim() === 'gzip' || name.trim() === 'x-gzip') return quality > 0
    if (name.trim() === '*') star = quality
  }
  return star !== null && star > 0
}

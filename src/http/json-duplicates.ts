// Finds a repeated member name in any object of a JSON text. JSON.parse silently keeps the last
// duplicate while other parsers keep the first; for signed data that ambiguity is refused.
// Assumes the text already parsed with JSON.parse (so it is well-formed).

export function hasDuplicateMember(text: string): boolean {
  return firstDuplicateMember(text) !== null
}

/** The first member name repeated within one object, or null (same walk as hasDuplicateMember). */
export function firstDuplicateMember(text: string): string | null {
  let duplicate: string | null = null
  let i = 0
  const skipSpace = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++
  }
  const readString = (): string => {
    const start = i
    i++ // opening quote
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1
    i++
    return JSON.parse(text.slice(start, i)) as string
  }
  const value = (): boolean => {
    skipSpace()
    const c = text[i]
    if (c === '{') {
      i++
      const seen = new Set<string>()
      skipSpace()
      if (text[i] === '}') {
        i++
        return false
      }
      for (;;) {
        skipSpace()
        const name = readString()
        if (seen.has(name)) {
          duplicate = name
          return true
        }
        seen.add(name)
        skipSpace()
        i++ // colon
        if (value()) return true
        skipSpace()
        if (text[i++] === '}') return false
      }
    }
    if (c === '[') {
      i++
      skipSpace()
      if (text[i] === ']') {
        i++
        return false
      }
      for (;;) {
        if (value()) return true
        skipSpace()
        if (text[i++] === ']') return false
      }
    }
    if (c === '"') {
      readString()
      return false
    }
    while (i < text.length && !',}] \n\r\t'.includes(text[i]!)) i++
    return false
  }
  value()
  return duplicate
}

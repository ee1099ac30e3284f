export async function runLogCommand(_args: string[], _out: (line: string) => void, err: (line: string) => void): Promise<number> {
  err('not yet')
  return 2
}

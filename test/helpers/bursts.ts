// Many requests at once against several processes (workers, nodes), for the tests that check a
// limit is exact however the requests are spread.

export interface BurstAnswer {
  status: number
  body: Record<string, any>
}

/** `count` requests at once through `send` (which picks the process); their statuses and bodies. */
export function burst(send: (path: string, init?: RequestInit) => Promise<Response>, count: number, request: (i: number) => [string, RequestInit?]): Promise<BurstAnswer[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const [path, init] = request(i)
      const response = await send(path, init)
      return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, any> }
    }),
  )
}

/** How many answers had each status. */
export const statuses = (answers: { status: number }[]) => answers.reduce<Record<number, number>>((counts, answer) => ({ ...counts, [answer.status]: (counts[answer.status] ?? 0) + 1 }), {})

// A TCP relay on loopback that a test can cut, stall and restore: a service given the relay's
// port instead of its database's loses the database while every other client of that database
// keeps it. `cut` closes every relayed connection and refuses new ones (the server gone);
// `stall` keeps every connection open and passes nothing either way (a network dropping
// packets: nothing is refused, nothing answers); `restore` ends a stall's connections and relays
// again. Used to take one node's PostgreSQL away.
import type { Socket, TCPSocketListener } from 'bun'
import { freePort } from './process'

export interface TcpRelay {
  port: number
  cut(): void
  stall(): void
  restore(): void
  stop(): void
}

type Side = { peer: Socket<Side> | null; pending: Uint8Array[] }

export function startTcpRelay(target: { host: string; port: number }): TcpRelay {
  const port = freePort()
  const open = new Set<Socket<Side>>()
  let listener: TCPSocketListener<Side> | null = null
  let stalled = false
  const forward = (to: Socket<Side> | null, data: Uint8Array, self: Socket<Side>) => {
    if (stalled) return
    if (to) to.write(data)
    else self.data.pending.push(new Uint8Array(data))
  }
  const listen = () => {
    listener = Bun.listen<Side>({
      hostname: '127.0.0.1',
      port,
      socket: {
        open(client) {
          client.data = { peer: null, pending: [] }
          open.add(client)
          // Stalled: accepted, never connected onwards.
          if (stalled) return
          void Bun.connect<Side>({
            hostname: target.host,
            port: target.port,
            socket: {
              open(upstream) {
                upstream.data = { peer: client, pending: [] }
                open.add(upstream)
                client.data.peer = upstream
                for (const chunk of client.data.pending) upstream.write(chunk)
                client.data.pending = []
              },
              data: (upstream, data) => forward(upstream.data.peer, data, upstream),
              close(upstream) {
                open.delete(upstream)
                upstream.data.peer?.end()
              },
              error: (upstream) => void upstream.data.peer?.end(),
              connectError: () => void client.end(),
            },
          }).catch(() => client.end())
        },
        data: (client, data) => forward(client.data.peer, data, client),
        close(client) {
          open.delete(client)
          client.data.peer?.end()
        },
        error: (client) => void client.data.peer?.end(),
      },
    })
  }
  const closeAll = () => {
    for (const socket of open) socket.terminate()
    open.clear()
  }
  listen()
  return {
    port,
    cut() {
      stalled = false
      listener?.stop(true)
      listener = null
      closeAll()
    },
    stall() {
      stalled = true
    },
    restore() {
      if (stalled) {
        // What a stall let through is lost: those connections are broken, as after a partition.
        stalled = false
        closeAll()
      }
      if (!listener) listen()
    },
    stop() {
      this.cut()
    },
  }
}

import { createServer, connect, type AddressInfo, type Socket } from 'node:net'

/**
 * A TCP relay on a loopback port in front of a real server (PostgreSQL), which a test can cut as a
 * restart or a network failure would: every open connection dies at once and new ones are refused
 * until it is reopened, on the same port.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>()
  let accepted = 0
  const server = createServer((client) => {
    accepted += 1
    const upstream = connect(target.port, target.host)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      // A reset on one side ends the other; the errors themselves are what the test provokes.
      socket.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    client.pipe(upstream)
    upstream.pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port

  return {
    port,
    get accepted() {
      return accepted
    },
    get open() {
      return sockets.size / 2
    },
    /** The same connection string, through the proxy. */
    via(url: string) {
      const through = new URL(url)
      through.hostname = '127.0.0.1'
      through.port = String(port)
      return through.toString()
    },
    /** Kills every connection and refuses new ones. */
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      for (const socket of sockets) socket.destroy()
      await closed
    },
    /** Accepts connections again on the same port. */
    async reopen() {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject)
          resolve()
        })
      })
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

export type TcpProxy = Awaited<ReturnType<typeof startTcpProxy>>

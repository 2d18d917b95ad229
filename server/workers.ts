import cluster, { type Worker } from 'node:cluster'
import type pino from 'pino'

/**
 * Runs `count` copies of the site in worker processes sharing one port, so a machine's cores all
 * answer requests (Node runs JavaScript on one). This process only supervises: a worker that dies
 * is replaced (after a pause that grows when they keep dying), and SIGTERM or SIGINT stops the
 * workers gracefully, each finishing its requests in flight, before this process exits.
 */
export function superviseWorkers(count: number, logger: pino.Logger, onFirstListening: (port: number) => void) {
  let stopping = false
  let failures = 0
  const fork = () => {
    const worker = cluster.fork()
    worker.once('listening', () => (failures = 0))
    return worker
  }
  cluster.once('listening', (_worker, address) => onFirstListening(address.port))
  for (let index = 0; index < count; index += 1) fork()
  cluster.on('exit', (worker: Worker, code, signal) => {
    if (stopping) return
    failures += 1
    const pause = Math.min(30_000, 250 * 2 ** Math.min(failures, 7))
    logger.error({ pid: worker.process.pid, code, signal, restartInMs: pause }, 'a worker stopped unexpectedly: starting another')
    setTimeout(() => !stopping && fork(), pause).unref()
  })
  const stop = () => {
    stopping = true
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => !!worker && !worker.isDead())
    return Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            worker.once('exit', () => resolve())
            worker.process.kill('SIGTERM')
          }),
      ),
    ).then(() => undefined)
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ workers: count }, 'shutting down: stopping the workers')
      stop().then(() => process.exit(0))
    })
  }
  return { stop }
}

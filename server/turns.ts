/**
 * Starts work one piece per turn of the event loop, in the order it was asked for.
 *
 * Node accepts one new connection per turn of its event loop. Under load a turn used to render
 * every page whose request had arrived (50 pages and 100 ms or more at 50 connections), so a new
 * connection waited one such turn for each connection ahead of it in the kernel's queue: seconds
 * for a visitor arriving in a busy minute, while the pages of connections already open kept going.
 * Started one a turn, each page leaves room for an accept, and for every socket's reads, before the next.
 */
export function oneATurn() {
  const waiting: Array<() => void> = []
  let scheduled = false
  const startNext = () => {
    waiting.shift()?.()
    // An immediate set by an immediate runs in the loop's next turn, after its I/O.
    scheduled = waiting.length > 0
    if (scheduled) setImmediate(startNext)
  }
  return (start: () => void) => {
    waiting.push(start)
    if (scheduled) return
    scheduled = true
    setImmediate(startNext)
  }
}

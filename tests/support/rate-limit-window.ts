/**
 * Rate limits count in fixed windows aligned to the clock (a 15-minute window starts at :00, :15,
 * :30 and :45): a series of attempts that a test expects to reach a limit must start well inside one
 * window, or the count starts again halfway and the limit looks absent. Waits for the next window
 * when the current one ends within `needMs`.
 */
export async function withinOneWindow(windowSeconds: number, needMs = 20_000) {
  const windowMs = windowSeconds * 1000
  const left = windowMs - (Date.now() % windowMs)
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 250))
}

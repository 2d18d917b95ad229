import { useEffect, useState } from 'react'
import { useFetcher, useRevalidator } from 'react-router'
import { durationMs } from '~/lib/lab-time'

/** The status pages poll every this many seconds while a payment is pending … */
export const POLL_SECONDS = 3
/** … and give up (the server does not) after this many. */
const TIMEOUT_SECONDS = 120

/**
 * While a payment is pending, asks `checkUrl` (a small JSON resource) every few seconds, counts the
 * seconds waited, and reloads the page's data once the state is final. After the timeout it stops;
 * `refresh()` asks once more.
 */
export function usePaymentPolling({ pending, checkUrl, initialElapsed, recheck }: { pending: boolean; checkUrl: string | null; initialElapsed: number; recheck: boolean }) {
  const [elapsed, setElapsed] = useState(initialElapsed)
  const checker = useFetcher<{ state: string | null }>()
  const revalidator = useRevalidator()
  const timedOut = pending && (elapsed >= TIMEOUT_SECONDS || recheck)

  useEffect(() => {
    if (!pending || timedOut || !checkUrl) return
    const timer = setInterval(() => {
      setElapsed((seconds) => seconds + POLL_SECONDS)
      checker.load(checkUrl)
    }, durationMs({ seconds: POLL_SECONDS }))
    return () => clearInterval(timer)
    // The fetcher's identity changes as it loads; the interval must not restart each time.
  }, [pending, timedOut, checkUrl])

  const checkedState = checker.data?.state
  useEffect(() => {
    if (checkedState && checkedState !== 'pending' && revalidator.state === 'idle') void revalidator.revalidate()
  }, [checkedState])

  return {
    elapsed,
    timedOut,
    checking: checker.state !== 'idle',
    refresh: () => {
      if (checkUrl) checker.load(checkUrl)
    },
  }
}

import { useEffect, useState } from 'react'

/** True once React has taken over in the browser; controls that need JavaScript appear only then. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return hydrated
}

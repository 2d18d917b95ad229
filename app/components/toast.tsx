import { useState } from 'react'
import { useHydrated } from '~/web/use-hydrated'
import { CloseIcon } from './control-icons'

type ToastMessage = { id: string; type: 'success' | 'error' | 'info'; title: string; description?: string }

const TONES = {
  success: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  error: 'border-red-300 bg-red-50 text-red-950',
  info: 'border-brand-100 bg-white text-ink',
}

/**
 * The one toast on screen: announced politely, dismissible, and gone after 5 seconds. The fade is
 * a CSS animation, so it also leaves when JavaScript is off.
 */
export function Toast({ toast }: { toast: ToastMessage }) {
  const [dismissed, setDismissed] = useState(false)
  const hydrated = useHydrated()
  if (dismissed) return null
  return (
    // Under the header, over the page's heading: at the bottom of a phone's screen it would cover what the page asks for next (the calendar's days on booking).
    <div className="pointer-events-none fixed inset-x-0 top-20 z-50 print-alone:hidden flex justify-center px-4 sm:right-4 sm:left-auto sm:justify-end">
      <div
        role="status"
        data-toast={toast.type}
        onAnimationEnd={() => setDismissed(true)}
        className={`pointer-events-auto flex w-full max-w-sm animate-toast items-start gap-3 rounded-xl border p-4 shadow-lg ${TONES[toast.type]}`}
      >
        <div className="flex-1">
          <p className="font-semibold">{toast.title}</p>
          {toast.description && <p className="mt-0.5 text-sm">{toast.description}</p>}
        </div>
        {hydrated && (
          <button
            type="button"
            onClick={() => setDismissed(true)}
            aria-label="Dismiss notification"
            className="-m-1 flex h-9 w-9 shrink-0 items-center justify-center rounded-md hover:bg-black/5"
          >
            <CloseIcon className="h-5 w-5" />
          </button>
        )}
      </div>
    </div>
  )
}

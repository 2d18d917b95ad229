import { useEffect, useRef, type ReactNode } from 'react'
import { useNavigate } from 'react-router'

/**
 * A dialog the server can render open (a page address such as ?confirm=1 shows it, so it works
 * without JavaScript). Once JavaScript runs it becomes modal: focus moves into it and stays there,
 * and Escape closes it, going to `closeHref`.
 */
export function ConfirmDialog({ title, closeHref, children }: { title: string; closeHref: string; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null)
  const navigate = useNavigate()

  useEffect(() => {
    const dialog = ref.current
    if (!dialog || dialog.matches(':modal')) return
    dialog.close()
    dialog.showModal()
  }, [])

  return (
    <dialog
      ref={ref}
      open
      aria-labelledby="confirm-dialog-title"
      onCancel={(event) => {
        event.preventDefault()
        navigate(closeHref, { preventScrollReset: true })
      }}
      className="card fixed inset-0 z-50 m-auto w-[min(32rem,calc(100%-2rem))] p-6 text-ink shadow-xl backdrop:bg-slate-900/50 sm:p-8"
    >
      <h2 id="confirm-dialog-title" className="text-xl font-bold text-brand-900">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </dialog>
  )
}

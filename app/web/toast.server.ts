import { randomUUID } from 'node:crypto'
import { createCookie, redirect } from 'react-router'
import { z } from 'zod'
import { config } from '~/config.server'

const ToastSchema = z.object({
  id: z.string().max(64),
  type: z.enum(['success', 'error', 'info']),
  title: z.string().max(200),
  description: z.string().max(500).optional(),
})
type Toast = z.infer<typeof ToastSchema>

const cookies = new Map<boolean, ReturnType<typeof createCookie>>()

/** A flash cookie: set by the response that redirects, read and cleared by the next page. */
function toastCookie() {
  const secure = config().SITE_URL.startsWith('https://')
  let cookie = cookies.get(secure)
  if (!cookie) {
    cookie = createCookie('toast', { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: 60 })
    cookies.set(secure, cookie)
  }
  return cookie
}

/** The Set-Cookie header that shows `toast` on the next page. */
function toastHeader(toast: Omit<Toast, 'id'>) {
  return toastCookie().serialize({ ...toast, id: randomUUID() })
}

/** A redirect that shows a toast on the page it leads to. */
export async function redirectWithToast(url: string, toast: Omit<Toast, 'id'>, headers: HeadersInit = {}) {
  const all = new Headers(headers)
  all.append('Set-Cookie', await toastHeader(toast))
  return redirect(url, { headers: all })
}

/** Reads the pending toast, if any, with the header that clears it (one toast is shown once). */
export async function takeToast(request: Request): Promise<{ toast: Toast | null; headers: Headers }> {
  const headers = new Headers()
  const raw = await toastCookie().parse(request.headers.get('Cookie'))
  if (raw === null || raw === undefined) return { toast: null, headers }
  headers.append('Set-Cookie', await toastCookie().serialize('', { maxAge: 0 }))
  const parsed = ToastSchema.safeParse(raw)
  return { toast: parsed.success ? parsed.data : null, headers }
}

export const LINK_GONE_TITLE = 'This link is no longer valid'

/** What a coach's link says once it was revoked or has expired (or never was one): nothing more. */
export function LinkGone() {
  return (
    <section className="container-page py-24 text-center">
      <h1 className="text-3xl font-extrabold text-brand-900 sm:text-4xl">{LINK_GONE_TITLE}</h1>
      <p className="mx-auto mt-4 max-w-2xl text-lg text-muted">The link may have been revoked or have expired. Please ask whoever shared it with you for a new one.</p>
    </section>
  )
}

/**
 * What an account holder under 18 sees on the account's pages until their parent or guardian
 * consents: who was asked, and that nothing can be booked until they agree. `notice` comes from
 * holderConsentNotice (app/modules/swimmers/swimmers.server.ts); nothing is shown for null.
 */
export type ParentConsentNoticeView = { parentEmail: string | null; answerBy: string | null } | null

export function ParentConsentNotice({ notice }: { notice: ParentConsentNoticeView }) {
  if (!notice) return null
  return (
    <div role="status" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      <p className="font-bold">Waiting for your parent's or guardian's consent</p>
      {notice.parentEmail ? (
        <p className="mt-1">
          Because you are under 18, we have e-mailed your parent or guardian at <span className="font-semibold">{notice.parentEmail}</span> to ask for their consent. You
          cannot book a session until they agree{notice.answerBy ? `; if they have not answered by ${notice.answerBy}, your account and its details are erased` : ''}.
        </p>
      ) : (
        <p className="mt-1">
          Because you are under 18, a session can be booked for you only with your parent's or guardian's consent. Send them the link from your consent page under My Swimmers,
          or write to us and we will help.
        </p>
      )}
    </div>
  )
}

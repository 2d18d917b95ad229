import { useEffect } from 'react'
import { Form, useRevalidator } from 'react-router'
import { durationMs } from '~/lib/lab-time'
import { AuthCard, PendingButton } from './form-controls'

/** With JavaScript, the page asks again this often while the parent waits. */
const REFRESH_SECONDS = 2

/**
 * A parent's place in a line (the camp line, an analysis day's), while their turn has not come:
 * their number, what they wait for and how the line works, and a button that looks again (the same
 * page, its link's fields sent along); with JavaScript, the page looks again by itself.
 */
export function PlaceInLine({ position, choice, explanation, link }: { position: number; choice: string; explanation: string; link: { place: string; key: string } }) {
  const revalidator = useRevalidator()
  useEffect(() => {
    const timer = setInterval(() => {
      if (revalidator.state === 'idle') void revalidator.revalidate()
    }, durationMs({ seconds: REFRESH_SECONDS }))
    return () => clearInterval(timer)
  }, [revalidator])
  return (
    <AuthCard title="You are in line" wide>
      <div role="status" className="space-y-3 text-ink">
        <p className="text-lg font-semibold">{`You are number ${position} in line for ${choice}.`}</p>
        <p>{explanation}</p>
        <p>Please keep this page open.</p>
      </div>
      <Form method="get" className="mt-6">
        <input type="hidden" name="place" value={link.place} />
        <input type="hidden" name="key" value={link.key} />
        <PendingButton when={{ untilLoaded: true }} className="btn-secondary">
          Check my place
        </PendingButton>
      </Form>
    </AuthCard>
  )
}

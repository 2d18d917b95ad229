import { Link } from 'react-router'

/** The top of the pages that cancel or move a booking (or cancel a camp place): the way back, which one, and when it is. */
export function BookingChangeHeading({
  heading,
  backTo,
  title,
  reference,
  days,
  referenceLabel = 'booking ID',
  listClassName = '',
}: {
  heading: string
  backTo: string
  title: string
  reference: string
  days: Array<{ label: string; value: string }>
  /** What the reference is called: a booking's ID, or a camp place's registration ID. */
  referenceLabel?: string
  /** Extra classes of the list of days, such as a width. */
  listClassName?: string
}) {
  return (
    <>
      <Link to={backTo} className="font-semibold text-brand-700 underline underline-offset-4">
        Back
      </Link>
      <h1 className="mt-4 text-3xl font-extrabold text-brand-900">{heading}</h1>
      <p className="mt-2 text-muted">
        {title}, {referenceLabel} {reference}
      </p>
      <dl className={`mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm ${listClassName}`.trimEnd()}>
        {days.map((day) => (
          <div key={day.label} className="contents">
            <dt className="text-muted">{day.label}</dt>
            <dd className="font-medium text-ink">{day.value}</dd>
          </div>
        ))}
      </dl>
    </>
  )
}

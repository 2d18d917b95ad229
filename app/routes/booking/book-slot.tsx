import { getFormProps, useForm } from '@conform-to/react'
import type { ReactNode } from 'react'
import { Form, href, Link, redirect } from 'react-router'
import type { Route } from './+types/book-slot'
import { HoneypotField, RadioGroupField } from '~/components/form-controls'
import { MonthCalendarCard } from '~/components/month-calendar'
import { SampleAnalysisLink } from '~/components/sample-analysis-link'
import { swimmerChoiceLabel } from '~/components/swimmer-fields'
import { TimeSlotPicker } from '~/components/time-slot-picker'
import { config } from '~/config.server'
import { getUser, requestedPath, requireUser } from '~/web/auth.server'
import { formatRupees } from '~/lib/money'
import { formatLabTime, formatShortWeekdayDayMonth, formatWeekdayDate, labToday } from '~/lib/lab-time'
import { rejectBots } from '~/web/honeypot'
import { pageMeta } from '~/lib/seo'
import { redirectWithToast } from '~/web/toast.server'
import { customerHold, daySchedule, firstOpenDate, monthCalendar } from '~/modules/booking/availability.server'
import { bookableMonth, holdSession, lastBookableDate } from '~/modules/booking/holds.server'
import { holderOf } from '~/web/holders/holder.server'
import { BookableDateSchema, HoldSlotSchema } from '~/modules/booking/schemas'
import { IMPORTANT_INFORMATION, SESSION_DAYS, SESSION_PRODUCT_CODE } from '~/modules/booking/texts'
import { swimmerChoices, swimmerToBook } from '~/modules/booking/swimmer-choice.server'
import { getCatalogue, requireItem } from '~/modules/site/site.server'
import { hasPublishedSample } from '~/modules/analyses/samples.server'
import { readForm } from '~/web/form-data.server'
import { refusalOf } from '~/web/refusals.server'
import { rowId } from '~/lib/row-id'
import { bookSlotLink, loginLink, slotPaymentLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Book a Slot', description: 'Choose a date and time for your 3-day swimming analysis session.', path: href('/book-slot') }),
  { name: 'robots', content: 'noindex' },
]

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const params = new URL(request.url).searchParams
  const now = new Date()
  const today = labToday(now)

  const dateParam = params.get('date')
  // Until a date or a month is chosen, the calendar opens on the first date that can be booked, with its times.
  const date = BookableDateSchema.safeParse(dateParam).success ? dateParam! : params.has('month') ? null : await firstOpenDate(today, lastBookableDate(SESSION_DAYS, today), now)
  const { month, previousMonth, nextMonth } = bookableMonth(params.get('month'), date, today)

  const choosing = swimmerChoices(user.id, now)
  // A time is Booked once each of the account's swimmers has a seat there.
  const scheduling = date ? choosing.then((choices) => daySchedule({ date, userId: user.id, days: SESSION_DAYS, now, swimmers: choices.swimmers.length })) : []
  const [calendar, choices, schedule, hold, catalogue, sampleAnalysis] = await Promise.all([monthCalendar(month, now, { days: SESSION_DAYS }), choosing, scheduling, customerHold(user.id, now), getCatalogue(), hasPublishedSample()])
  // Analyses: the invitation to the next analysis links here with ?swimmer=<id>; only the account's own swimmers are chosen by it.
  const invited = choices.swimmers.find((swimmer) => swimmer.id === rowId(params.get('swimmer'))) ?? null
  return {
    today,
    month,
    previousMonth,
    nextMonth,
    calendar,
    date,
    schedule,
    hold: hold ? { bookingId: hold.bookingId, until: formatLabTime(hold.holdExpiresAt) } : null,
    product: requireItem(catalogue, SESSION_PRODUCT_CODE).name,
    pricePaise: requireItem(catalogue, SESSION_PRODUCT_CODE).pricePaise,
    holdMinutes: config().SEAT_HOLD_MINUTES,
    swimmers: choices.swimmers,
    preselected: invited?.id ?? choices.preselected,
    invited: invited ? { id: invited.id, name: invited.name } : null,
    waitingForConsent: choices.swimmers.length > 0 && choices.swimmers.every((swimmer) => !swimmer.mayBeBooked),
    sampleAnalysis,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await getUser(request)
  if (!user) {
    return redirectWithToast(loginLink(requestedPath(request)), {
      type: 'error',
      title: 'Authentication Required',
      description: 'Please log in to book a slot',
    })
  }
  const formData = await readForm(request)
  rejectBots(formData)
  const submission = HoldSlotSchema.safeParse(Object.fromEntries(formData))
  if (!submission.success) {
    return redirectWithToast(backTo(formData), { type: 'error', title: 'No time slot selected', description: 'Please select a time slot to continue.' })
  }
  const { holder, setCookie } = await holderOf(request, context, { userId: user.id, email: user.email })
  const headers = setCookie ? { 'Set-Cookie': setCookie } : undefined
  try {
    // Who swims: the swimmer chosen on the form (one of this account's), or the account's only one.
    const chosen = formData.has('swimmerId') ? (rowId(String(formData.get('swimmerId'))) ?? 0) : null
    const swimmer = await swimmerToBook(user.id, chosen)
    const hold = await holdSession({
      customer: { userId: user.id, swimmerId: swimmer.id, swimmerName: swimmer.name, name: user.name, email: user.email, phone: user.phone, swimmingExperience: swimmer.swimmingExperience },
      productCode: SESSION_PRODUCT_CODE,
      date: submission.data.date,
      start: submission.data.time,
      days: SESSION_DAYS,
      holder,
    })
    return redirect(slotPaymentLink(hold.bookingId), { headers })
  } catch (error) {
    return redirectWithToast(bookSlotLink({ date: submission.data.date }), { type: 'error', title: 'Booking Failed', description: refusalOf(error).message }, headers)
  }
}

function backTo(formData: FormData) {
  const date = formData.get('date')
  return typeof date === 'string' && BookableDateSchema.safeParse(date).success ? bookSlotLink({ date }) : href('/book-slot')
}

export default function BookSlot({ loaderData }: Route.ComponentProps) {
  const { today, month, previousMonth, nextMonth, calendar, date, schedule, hold, product, pricePaise, holdMinutes, swimmers, preselected, waitingForConsent, invited, sampleAnalysis } = loaderData
  const query = (values: Record<string, string | null | undefined>) => {
    const params = new URLSearchParams()
    for (const [key, value] of Object.entries(values)) if (value) params.set(key, value)
    // Analyses: the swimmer invited back stays chosen while the date is picked.
    if (invited) params.set('swimmer', String(invited.id))
    return `${href('/book-slot')}?${params}`
  }

  return (
    <section className="container-page py-10 sm:py-14">
      <h1 className="text-3xl font-extrabold text-brand-900 sm:text-4xl">Book Your Analysis Session</h1>
      <p className="mt-3 max-w-3xl text-lg text-muted">
        Pick a date and an available time. Your 3-day analysis runs at the same time on that date and the next two days the lab is open for it.
      </p>
      <SampleAnalysisLink shown={sampleAnalysis} className="mt-1" />
      {invited && <p className="mt-2 font-semibold text-ink">{`Booking for ${invited.name}.`}</p>}

      {swimmers.length === 0 ? (
        <div role="status" className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950">
          <p>
            A session is booked for one of your swimmers. Please add the swimmer on{' '}
            <Link to={href('/swimmers')} className="font-semibold underline underline-offset-2">
              My Swimmers
            </Link>{' '}
            first.
          </p>
        </div>
      ) : (
        waitingForConsent && (
          <div role="status" className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950">
            <p>
              {`${swimmers.length === 1 ? `${swimmers[0]!.name} is under 18` : 'Your swimmers are under 18'}: we have e-mailed your parent or guardian a link to agree to the booking of swimmers under 18. You can book once they agree.`}{' '}
              See{' '}
              <Link to={href('/swimmers')} className="font-semibold underline underline-offset-2">
                My Swimmers
              </Link>
              .
            </p>
          </div>
        )
      )}

      {hold && (
        <div role="status" className="mt-6 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950">
          <p>Your seats are held until {hold.until} while you pay.</p>
          <Link to={slotPaymentLink(hold.bookingId)} className="btn-primary">
            Complete your payment
          </Link>
        </div>
      )}

      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <MonthCalendarCard month={month} previousMonth={previousMonth} nextMonth={nextMonth} days={calendar} selected={date} today={today} query={query} />

        <div className="space-y-6">
          <section aria-labelledby="time-slots" className="card p-6 shadow-sm">
            <h2 id="time-slots" className="text-lg font-bold text-ink">
              {date ? `Times on ${formatWeekdayDate(date)}` : 'Time slots'}
            </h2>
            {!date ? (
              <p className="mt-2 text-muted">Choose a date to see its time slots.</p>
            ) : schedule.length === 0 ? (
              <p className="mt-2 text-muted">There are no time slots on this date. Please choose another date.</p>
            ) : (
              <HoldForm date={date} swimmers={swimmers} preselected={preselected}>
                <p className="mt-2 text-muted">
                  {product}: <strong className="text-ink">{formatRupees(pricePaise)}</strong>. Choosing a time holds your seats for {holdMinutes} minutes while you pay; you see
                  everything before paying.
                </p>
                <TimeSlotPicker slots={schedule} chosen={null} choose={{ name: 'time', detailFor: (start) => sessionDays(schedule.find((slot) => slot.start === start)) }} />
              </HoldForm>
            )}
          </section>

          <section aria-labelledby="important-information" className="card p-6 shadow-sm">
            <h2 id="important-information" className="text-lg font-bold text-ink">
              Important information
            </h2>
            <ul className="mt-3 list-disc space-y-1 pl-5 text-muted">
              {IMPORTANT_INFORMATION.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </section>
        </div>
      </div>
    </section>
  )
}

/** The days a time's 3-day session takes, under the time. */
function sessionDays(slot: { sessionDates?: string[] } | undefined) {
  return slot?.sessionDates?.length ? slot.sessionDates.map(formatShortWeekdayDayMonth).join(', ') : null
}

type SwimmerOption = { id: number; name: string; mayBeBooked: boolean }

/**
 * The form that holds the seats of the time tapped: who will swim (asked when the account has
 * several swimmers, the usual one chosen), then the times, each a button of this form.
 */
function HoldForm({ date, swimmers, preselected, children }: { date: string; swimmers: SwimmerOption[]; preselected: number | null; children: ReactNode }) {
  if (swimmers.length > 1) {
    return (
      <HoldFormChoosingSwimmer date={date} swimmers={swimmers} preselected={preselected}>
        {children}
      </HoldFormChoosingSwimmer>
    )
  }
  const only = swimmers[0]
  // With no choice to validate, the form needs none of the form library's state (a fair share of the page's render).
  return (
    <Form method="post" id={HOLD_FORM_ID} noValidate className="mt-2">
      <HoneypotField />
      <input type="hidden" name="date" value={date} />
      {only && (
        <>
          <input type="hidden" name="swimmerId" value={only.id} />
          <p className="text-ink">
            Swimmer: <strong>{only.name}</strong>
          </p>
        </>
      )}
      {children}
    </Form>
  )
}

const HOLD_FORM_ID = 'hold-slot'

function HoldFormChoosingSwimmer({ date, swimmers, preselected, children }: { date: string; swimmers: SwimmerOption[]; preselected: number | null; children: ReactNode }) {
  const [form, fields] = useForm<{ swimmerId: string }>({ id: HOLD_FORM_ID, defaultValue: { swimmerId: preselected === null ? undefined : String(preselected) } })
  return (
    <Form method="post" {...getFormProps(form)} className="mt-2">
      <HoneypotField />
      <input type="hidden" name="date" value={date} />
      <RadioGroupField
        field={fields.swimmerId}
        legend="Who will swim?"
        options={swimmers.map((swimmer) => ({ value: String(swimmer.id), label: swimmerChoiceLabel(swimmer) }))}
      />
      {children}
    </Form>
  )
}

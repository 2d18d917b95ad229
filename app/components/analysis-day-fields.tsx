import { href, Link } from 'react-router'
import { SelectField, TextAreaField, TextField } from './form-controls'
import { capacityOfTyped } from '~/modules/booking/analysis-day-capacity'

type Field = Parameters<typeof TextField>[0]['field']
type Options = ReadonlyArray<{ value: string; label: string }>

type AnalysisDayFieldNames = 'venueId' | 'productCode' | 'firstDate' | 'lastDate' | 'startTime' | 'endTime' | 'slotMinutes' | 'rigs' | 'price' | 'hostSeats' | 'releaseDate' | 'releaseTime' | 'whatToBring'

/**
 * An analysis day as staff add and edit one: where and what, its dates and hours, its slots and kits
 * (with the capacity they make under them), its price, the host's seats and when booking opens to
 * everyone.
 */
export function AnalysisDayFields({ fields, venues, products }: { fields: Record<AnalysisDayFieldNames, Field>; venues: Options; products: Options }) {
  const noVenue =
    venues.length === 0 ? (
      <>
        No venue away from the lab is open.{' '}
        <Link to={href('/admin/venues')} className="link">
          Add one under Venues
        </Link>{' '}
        first.
      </>
    ) : undefined
  return (
    <div className="grid gap-5 md:grid-cols-2">
      <SelectField field={fields.venueId} label="Venue" options={venues} hint={noVenue} />
      <SelectField field={fields.productCode} label="What is sold" options={products} />
      <TextField field={fields.firstDate} label="First date" type="date" />
      <TextField field={fields.lastDate} label="Last date" type="date" hint="The first date again for a single date; a week at most." />
      <TextField field={fields.startTime} label="Starting time" type="time" hint="In the lab’s time (IST)." />
      <TextField field={fields.endTime} label="Finishing time" type="time" />
      <TextField field={fields.slotMinutes} label="Slot length in minutes" inputMode="numeric" hint="Each swimmer’s time in front of the kit." />
      <TextField field={fields.rigs} label="Rigs (kits filming at once)" inputMode="numeric" hint="Each kit films one swimmer per slot." />
      <Capacity fields={fields} />
      <TextField field={fields.price} label="Price in rupees" inputMode="decimal" hint="Such as 1,500. Each product’s own price is beside its name above." />
      <TextField field={fields.hostSeats} label="Seats kept for the host" inputMode="numeric" hint="Booked through the host’s private link before booking opens to everyone; 0 for none." />
      <TextField field={fields.releaseDate} label="Date booking opens to everyone" type="date" />
      <TextField field={fields.releaseTime} label="Time booking opens to everyone" type="time" hint="In the lab’s time (IST). Until then only the host’s link books." />
      <div className="md:col-span-2">
        <TextAreaField field={fields.whatToBring} label="What to bring" note="optional" />
      </div>
    </div>
  )
}

/**
 * How many swimmers the numbers above make, as a sentence: worked out again as staff type (with
 * JavaScript), and from the form as it was sent on the page that answers it (without).
 */
function Capacity({ fields }: { fields: Record<'firstDate' | 'lastDate' | 'startTime' | 'endTime' | 'slotMinutes' | 'rigs', Field> }) {
  const { firstDate, lastDate, startTime, endTime, slotMinutes, rigs } = fields
  const capacity = capacityOfTyped({ firstDate: firstDate.value, lastDate: lastDate.value, startTime: startTime.value, endTime: endTime.value, slotMinutes: slotMinutes.value, rigs: rigs.value })
  return (
    <div className="rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 md:col-span-2">
      <p className="text-sm font-semibold text-ink">Capacity</p>
      <output htmlFor={[firstDate.id, lastDate.id, startTime.id, endTime.id, slotMinutes.id, rigs.id].join(' ')} className="mt-1 block font-semibold text-brand-900">
        {capacity ? capacity.sentence : 'Fill in the dates, the hours, the slot length and the rigs to see how many swimmers the day takes.'}
      </output>
      <p className="mt-1 hidden text-sm text-muted noscript:block">Worked out again each time the form is sent.</p>
    </div>
  )
}

import { CheckboxGroupField, TextField } from './form-controls'
import { WEEKDAYS } from '~/modules/booking/staff-schemas'

type TextFieldOf = Parameters<typeof TextField>[0]['field']
type WeekdaysField = Parameters<typeof CheckboxGroupField>[0]['field']

/** The dates staff open or close: a first date, an optional last one, and the weekdays between them. */
export function DateRangeFields({ fields }: { fields: { from: TextFieldOf; to: TextFieldOf; weekdays: WeekdaysField } }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.from} label="From" type="date" />
        <TextField field={fields.to} label="To" type="date" optional hint="Leave empty for a single date." />
      </div>
      <CheckboxGroupField field={fields.weekdays} legend="On these weekdays" options={WEEKDAYS} />
    </>
  )
}

/** A window's opening hours: when it opens and closes, how long a slot is, and how many people a slot takes. */
export function HoursFields({ fields }: { fields: { startTime: TextFieldOf; endTime: TextFieldOf; slotDurationMinutes: TextFieldOf; capacity: TextFieldOf } }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField field={fields.startTime} label="Opening time" type="time" />
      <TextField field={fields.endTime} label="Closing time" type="time" />
      <TextField field={fields.slotDurationMinutes} label="Slot length (minutes)" type="number" inputMode="numeric" />
      <TextField field={fields.capacity} label="People per slot" type="number" inputMode="numeric" />
    </div>
  )
}

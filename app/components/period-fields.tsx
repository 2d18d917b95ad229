import { TextField } from './form-controls'

type Field = Parameters<typeof TextField>[0]['field']

/** When a kit or a person is at a venue: from a date and time to a date and time, in the lab's time (IST). */
export function PeriodFields({ fields }: { fields: { fromDate: Field; fromTime: Field; toDate: Field; toTime: Field } }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField field={fields.fromDate} label="First date" type="date" />
      <TextField field={fields.fromTime} label="Starting time" type="time" hint="In the lab’s time (IST)." />
      <TextField field={fields.toDate} label="Last date" type="date" />
      <TextField field={fields.toTime} label="Finishing time" type="time" />
    </div>
  )
}

import type { FieldMetadata } from '@conform-to/react'
import { RadioGroupField, TextField } from './form-fields'

// The fields of the staff's camp and batch forms, shared by the new-camp form and the camp's page.

type Field = FieldMetadata<string | undefined, Record<string, unknown>, string[]>

type CampFieldNames = 'name' | 'startsOn' | 'endsOn' | 'venue' | 'earlyBirdPrice' | 'regularPrice' | 'earlyBirdDeadline' | 'registration' | SiblingFieldNames

type SiblingFieldNames = 'siblingPrice' | 'siblingPercent' | 'siblingAmount'

export function CampDetailsFields({ fields }: { fields: Record<CampFieldNames, Field> }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField field={fields.name} label="Name" />
      <TextField field={fields.venue} label="Venue" />
      <TextField field={fields.startsOn} label="First day" type="date" />
      <TextField field={fields.endsOn} label="Last day" type="date" />
      <TextField field={fields.earlyBirdPrice} label="Early-bird price (₹)" inputMode="decimal" hint="In rupees, such as 35,000" />
      <TextField field={fields.regularPrice} label="Regular price (₹)" inputMode="decimal" hint="In rupees, at least the early-bird price" />
      <TextField field={fields.earlyBirdDeadline} label="Early-bird price until" type="date" hint="The early-bird price lasts until the end of this day (IST)." />
      <RadioGroupField
        field={fields.registration}
        legend="Registration"
        options={[
          { value: 'open', label: 'Open' },
          { value: 'closed', label: 'Closed' },
        ]}
      />
      <SiblingPriceFields fields={fields} />
    </div>
  )
}

/**
 * What a family's second and each further swimmer pays: the fee, or less by a percentage or an
 * amount. Both boxes are always there (the form works without JavaScript); the choice says which counts.
 */
function SiblingPriceFields({ fields }: { fields: Record<SiblingFieldNames, Field> }) {
  return (
    <div className="space-y-4 border-t border-slate-200 pt-6 sm:col-span-2">
      <RadioGroupField
        field={fields.siblingPrice}
        legend="Sibling price: a family's second and each further swimmer in this camp pays"
        options={[
          { value: 'none', label: 'The full fee' },
          { value: 'percent', label: 'A percentage less' },
          { value: 'amount', label: 'An amount less' },
        ]}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.siblingPercent} label="Percentage off (%)" inputMode="decimal" hint="With a percentage less: from 0.01 to 100, such as 10" />
        <TextField field={fields.siblingAmount} label="Amount off (₹)" inputMode="decimal" hint="With an amount less: in rupees, less than the regular price, such as 2,000" />
      </div>
    </div>
  )
}

type BatchFieldNames = 'name' | 'code' | 'start1' | 'end1' | 'start2' | 'end2' | 'capacity'

export function BatchDetailsFields({ fields, seatsHint }: { fields: Record<BatchFieldNames, Field>; seatsHint?: string }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField field={fields.name} label="Batch name" />
      <TextField field={fields.code} label="Batch code" hint="Lower-case letters, digits, - or _, such as batch1" />
      <TextField field={fields.start1} label="First session starts" type="time" />
      <TextField field={fields.end1} label="First session ends" type="time" />
      <TextField field={fields.start2} label="Second session starts (optional)" type="time" />
      <TextField field={fields.end2} label="Second session ends (optional)" type="time" />
      <TextField field={fields.capacity} label="Seats" inputMode="numeric" hint={seatsHint} />
    </div>
  )
}

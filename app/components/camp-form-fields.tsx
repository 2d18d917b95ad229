import { getInputProps, type FieldMetadata } from '@conform-to/react'
import type { ReactNode } from 'react'
import { FieldError, RadioGroupField, TextField } from './form-fields'

// The fields of the staff's camp and batch forms, shared by the new-camp form and the camp's page.

type Field = FieldMetadata<string | undefined, Record<string, unknown>, string[]>

/** A labelled input of a type the shared TextField does not offer (dates, times, amounts). */
function InputField({ field, label, type = 'text', inputMode, hint }: { field: Field; label: ReactNode; type?: 'text' | 'date' | 'time'; inputMode?: 'decimal' | 'numeric'; hint?: string }) {
  const { key, ...props } = getInputProps(field, { type, ariaDescribedBy: hint ? field.descriptionId : undefined })
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      <input key={key} {...props} inputMode={inputMode} className="input mt-1" />
      {hint && (
        <p id={field.descriptionId} className="mt-1 text-sm text-muted">
          {hint}
        </p>
      )}
      <FieldError field={field} />
    </div>
  )
}

type CampFieldNames = 'name' | 'startsOn' | 'endsOn' | 'venue' | 'earlyBirdPrice' | 'regularPrice' | 'earlyBirdDeadline' | 'registration' | SiblingFieldNames

type SiblingFieldNames = 'siblingPrice' | 'siblingPercent' | 'siblingAmount'

export function CampDetailsFields({ fields }: { fields: Record<CampFieldNames, Field> }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField field={fields.name} label="Name" />
      <TextField field={fields.venue} label="Venue" />
      <InputField field={fields.startsOn} label="First day" type="date" />
      <InputField field={fields.endsOn} label="Last day" type="date" />
      <InputField field={fields.earlyBirdPrice} label="Early-bird price (₹)" inputMode="decimal" hint="In rupees, such as 35,000" />
      <InputField field={fields.regularPrice} label="Regular price (₹)" inputMode="decimal" hint="In rupees, at least the early-bird price" />
      <InputField field={fields.earlyBirdDeadline} label="Early-bird price until" type="date" hint="The early-bird price lasts until the end of this day (IST)." />
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
        <InputField field={fields.siblingPercent} label="Percentage off (%)" inputMode="decimal" hint="With a percentage less: from 0.01 to 100, such as 10" />
        <InputField field={fields.siblingAmount} label="Amount off (₹)" inputMode="decimal" hint="With an amount less: in rupees, less than the regular price, such as 2,000" />
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
      <InputField field={fields.start1} label="First session starts" type="time" />
      <InputField field={fields.end1} label="First session ends" type="time" />
      <InputField field={fields.start2} label="Second session starts (optional)" type="time" />
      <InputField field={fields.end2} label="Second session ends (optional)" type="time" />
      <InputField field={fields.capacity} label="Seats" inputMode="numeric" hint={seatsHint} />
    </div>
  )
}

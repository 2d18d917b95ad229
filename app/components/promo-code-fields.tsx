import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { CheckboxGroupField, FieldError, RadioGroupField, TextField } from './form-fields'
import { PROMO_PRODUCTS } from '~/modules/promotions/texts'

// The fields of the staff's promo code form, shared by the new-code form and a code's page.

type Field = FieldMetadata<string | undefined, Record<string, unknown>, string[]>
type ListField = FieldMetadata<string[] | undefined, Record<string, unknown>, string[]>

type PromoFieldNames = 'code' | 'description' | 'discountKind' | 'discountValue' | 'validFrom' | 'validUntil' | 'maxUses' | 'maxUsesPerCustomer'

const PRODUCT_OPTIONS = PROMO_PRODUCTS.map((product) => ({ value: product.value, label: product.label.charAt(0).toUpperCase() + product.label.slice(1) }))

/** A code that orders have used: shown, sent back as it is, and not editable, with the reason next to it. */
function LockedCodeField({ field, reason }: { field: Field; reason: string }) {
  const { key, ...props } = getInputProps(field, { type: 'text', ariaDescribedBy: field.descriptionId })
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-semibold text-ink">
        Code
      </label>
      <input key={key} {...props} readOnly className="input mt-1 bg-slate-100" />
      <p id={field.descriptionId} className="mt-1 text-sm text-muted">
        {reason}
      </p>
      <FieldError field={field} />
    </div>
  )
}

export function PromoCodeFields({ fields, codeLockedBecause }: { fields: Record<PromoFieldNames, Field> & { products: ListField }; codeLockedBecause?: string | null }) {
  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-2">
        {codeLockedBecause ? (
          <LockedCodeField field={fields.code} reason={codeLockedBecause} />
        ) : (
          <TextField field={fields.code} label="Code" hint="3 to 32 letters, digits, - or _, such as DIWALI25. Customers may type it in any letter case." />
        )}
        <TextField field={fields.description} label="Description" optional hint="For staff: what the code is for, such as “Diwali offer for schools”." />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <RadioGroupField
          field={fields.discountKind}
          legend="Discount"
          options={[
            { value: 'percent', label: 'A percentage' },
            { value: 'amount', label: 'An amount in rupees' },
          ]}
        />
        <TextField field={fields.discountValue} label="Discount (% or ₹)" inputMode="text" hint="A percentage such as 10 or 12.5, or rupees such as 500. An amount is shared across an order’s swimmers." />
      </div>
      <CheckboxGroupField field={fields.products} legend="For (none ticked: everything)" options={PRODUCT_OPTIONS} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.validFrom} label="Valid from" type="date" optional hint="From the start of this day (IST). Empty: from now." />
        <TextField field={fields.validUntil} label="Valid until" type="date" optional hint="To the end of this day (IST). Empty: no end." />
        <TextField field={fields.maxUses} label="Uses in all" inputMode="numeric" optional hint="Empty: unlimited." />
        <TextField field={fields.maxUsesPerCustomer} label="Uses per customer" inputMode="numeric" optional hint="Per account, or per e-mail address for guests. Empty: unlimited." />
      </div>
    </div>
  )
}

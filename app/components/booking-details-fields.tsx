import type { FieldMetadata } from '@conform-to/react'
import { href, Link } from 'react-router'
import { RadioGroupField, TextField } from './form-controls'
import { WhenApplies, WithoutScript } from './scripting'
import { describesMinor, GuardianDeclarationField, swimmerChoiceLabel } from './swimmer-fields'
import { WhatsAppOptInField } from './whatsapp-opt-in'
import { GUEST_WHO_SWIMS, SOMEONE_ELSE } from '~/modules/booking/fields'

type Field = FieldMetadata<string | undefined, Record<string, unknown>, string[]>

/** Who may swim: a guest themselves or someone else (`swimmers` null); an account its swimmers, and someone else where it may book for them. */
export type WhoSwimsChoices = { swimmers: ReadonlyArray<{ id: number; name: string; mayBeBooked: boolean }> | null; someoneElse: boolean }

/** The answers to "Who will swim?". */
function whoSwimsOptions({ swimmers, someoneElse }: WhoSwimsChoices) {
  if (swimmers === null) return [...GUEST_WHO_SWIMS]
  return [...swimmers.map((swimmer) => ({ value: String(swimmer.id), label: swimmerChoiceLabel(swimmer) })), ...(someoneElse ? [{ value: SOMEONE_ELSE, label: 'Someone else' }] : [])]
}

type DetailsFields = Record<'name' | 'email' | 'phone' | 'whoSwims' | 'swimmerName' | 'swimmerAge' | 'guardianDeclaration', Field> & {
  whatsappOptIn: FieldMetadata<string | boolean | undefined, Record<string, unknown>, string[]>
}

/**
 * Who books and who swims, as every public booking form asks it (/booking, an analysis day's page):
 * the contact details, the WhatsApp box while the site sends WhatsApp messages (`whatsappOptIn` is
 * its wording), who swims, and for someone else their name, age and, under 18, the declaration of
 * their parent or guardian.
 */
export function BookingDetailsFields({ fields, whatsappOptIn, whoSwims }: { fields: DetailsFields; whatsappOptIn: string | null; whoSwims: WhoSwimsChoices }) {
  const options = whoSwimsOptions(whoSwims)
  const someoneElse = fields.whoSwims.value === SOMEONE_ELSE
  const minor = describesMinor(fields.swimmerAge.value, undefined) === true
  // Someone else's name, age and declaration: asked where the page offers someone else, and shown wherever they were refused.
  const offersSomeoneElse = options.some((option) => option.value === SOMEONE_ELSE)
  const asks = (field: { errors?: string[] }) => offersSomeoneElse || Boolean(field.errors?.length)
  return (
    <>
      <TextField field={fields.name} label="Full Name" autoComplete="name" />
      <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
      <TextField field={fields.phone} label="Phone" type="tel" inputMode="tel" autoComplete="tel" optional />
      {whatsappOptIn && <WhatsAppOptInField field={fields.whatsappOptIn} wording={whatsappOptIn} />}

      {options.length > 0 && <RadioGroupField field={fields.whoSwims} legend="Who will swim?" options={options} />}
      {whoSwims.swimmers?.length === 0 && (
        <p className="text-sm text-muted">
          Your account has no swimmers yet. To book for yourself or your child, add them on{' '}
          <Link to={href('/swimmers')} className="link">
            My Swimmers
          </Link>{' '}
          first.
        </p>
      )}
      {asks(fields.swimmerName) && (
        <WhenApplies applies={someoneElse} errors={fields.swimmerName.errors}>
          <TextField field={fields.swimmerName} label="Swimmer's name" autoComplete="off" hint={<WithoutScript>Only when someone else swims.</WithoutScript>} />
        </WhenApplies>
      )}
      {asks(fields.swimmerAge) && (
        <WhenApplies applies={someoneElse} errors={fields.swimmerAge.errors}>
          <TextField
            field={fields.swimmerAge}
            label="Swimmer's age"
            inputMode="numeric"
            hint={
              <>
                In years.<WithoutScript> Only when someone else swims.</WithoutScript>
              </>
            }
          />
        </WhenApplies>
      )}
      {asks(fields.guardianDeclaration) && (
        <WhenApplies applies={someoneElse && minor} errors={fields.guardianDeclaration.errors}>
          <GuardianDeclarationField field={fields.guardianDeclaration} hint={<WithoutScript>Needed when someone else under 18 swims.</WithoutScript>} />
        </WhenApplies>
      )}
    </>
  )
}

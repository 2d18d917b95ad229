import type { FieldMetadata } from '@conform-to/react'
import type { ReactNode } from 'react'
import { href, Link } from 'react-router'
import { DeclarationField } from './declaration-field'
import { RadioGroupField, SelectField, TextField } from './form-controls'
import { WhenApplies, WithoutScript } from './scripting'
import { labToday } from '~/lib/lab-time'
import { GENDERS, HOW_DID_YOU_KNOW, PARTICIPATE_IN_EVENTS, SPECIALIZATIONS, SWIMMING_EXPERIENCE } from '~/modules/forms/choices'
import { ADULT_AGE, wholeYearsBetween } from '~/modules/swimmers/age'

// The swimmer's part of a form, the same on registration and when a swimmer is added or edited:
// the same fields, labels and messages (the schemas' swimmerFields).

type Field = FieldMetadata<string | undefined, Record<string, unknown>, string[]>

type SwimmerProfileFieldNames =
  | 'age'
  | 'birthDate'
  | 'gender'
  | 'swimmingExperience'
  | 'specialization'
  | 'academyName'
  | 'coachName'
  | 'otherSpecialization'
  | 'strokeBestTime'
  | 'participateInEvents'

/** Age and date of birth: the age, or the exact date instead. */
export function SwimmerAgeFields({ fields }: { fields: Record<'age' | 'birthDate', Field> }) {
  return (
    <>
      <TextField field={fields.age} label="Age" inputMode="numeric" hint="In years. Not needed if you give the date of birth." />
      <TextField field={fields.birthDate} label="Date of birth" type="date" optional hint="Instead of the age, if you prefer." />
    </>
  )
}

/** The rest of the swimmer's profile, after their name and age. */
export function SwimmerProfileFields({ fields, aboutSomeoneElse = false }: { fields: Record<Exclude<SwimmerProfileFieldNames, 'age' | 'birthDate'>, Field>; aboutSomeoneElse?: boolean }) {
  return (
    <>
      <RadioGroupField field={fields.gender} legend="Gender" options={GENDERS} />
      <div className="grid gap-5 sm:grid-cols-2">
        <SelectField field={fields.swimmingExperience} label="Swimming Experience" options={SWIMMING_EXPERIENCE} />
        <SelectField field={fields.specialization} label="Specialization" options={SPECIALIZATIONS} />
        <TextField field={fields.academyName} label="Academy Name" hint="Enter NA if not applicable" />
        <TextField field={fields.coachName} label="Coach Name" hint="Enter NA if not applicable" />
        <TextField field={fields.otherSpecialization} label="Other Specialization" optional />
        <TextField field={fields.strokeBestTime} label="Stroke Best Time" optional placeholder="mm:ss.ms" hint="For example 01:05.32" />
      </div>
      <RadioGroupField
        field={fields.participateInEvents}
        legend={aboutSomeoneElse ? 'Does the swimmer participate in events?' : 'Do you participate in events?'}
        options={PARTICIPATE_IN_EVENTS}
      />
    </>
  )
}

/** How the family heard of the lab: asked on registration only, not for each swimmer added later. */
export function HeardAboutFields({ fields }: { fields: Record<'howDidYouKnow' | 'otherSource', Field> }) {
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <SelectField field={fields.howDidYouKnow} label="How did you get to know about us?" options={HOW_DID_YOU_KNOW} />
      <TextField field={fields.otherSource} label="Other Source" optional />
    </div>
  )
}

/** The guardian's declaration for a swimmer under 18, with the privacy policy it agrees to. */
export function GuardianDeclarationField({ field, hint }: { field: Field; hint?: ReactNode }) {
  return (
    <DeclarationField field={field} hint={hint}>
      I am this swimmer's parent or legal guardian, and I agree to the lab keeping and using their details as the{' '}
      <Link to={href('/privacy-policy')} target="_blank" className="link">
        Privacy Policy<span className="sr-only"> (opens in a new tab)</span>
      </Link>{' '}
      describes.
    </DeclarationField>
  )
}

/** A swimmer of the account as the booking forms offer them under "Who will swim?". */
export function swimmerChoiceLabel(swimmer: { name: string; mayBeBooked: boolean }) {
  return swimmer.mayBeBooked ? swimmer.name : `${swimmer.name} (waiting for a parent's consent)`
}

/**
 * Whether the age or date of birth typed so far says the swimmer is under 18 today; null while
 * neither says anything. Only decides which fields the page shows: the server's schema decides.
 */
export function describesMinor(age: unknown, birthDate: unknown): boolean | null {
  // A field sent twice (by a hand-made request) comes back as a list: only a single answer counts.
  const today = labToday()
  if (typeof birthDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(birthDate) && birthDate <= today) return wholeYearsBetween(birthDate, today) < ADULT_AGE
  if (typeof age === 'string' && /^\d{1,3}$/.test(age.trim()) && Number(age) >= 1) return Number(age) < ADULT_AGE
  return null
}

type SwimmerFormFields = Record<'name' | 'guardianDeclaration' | SwimmerProfileFieldNames, Field>

/**
 * The fields of the form that adds or edits a swimmer of the account. The declaration shows while
 * it may be needed (`declaration`): for a swimmer under 18 without a parent's consent in force.
 */
export function SwimmerFormFields({ fields, declaration, aboutSomeoneElse = true }: { fields: SwimmerFormFields; declaration: boolean; aboutSomeoneElse?: boolean }) {
  const minor = describesMinor(fields.age.value, fields.birthDate.value) === true
  return (
    <>
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <TextField field={fields.name} label="Swimmer's name" autoComplete="off" />
        </div>
        <SwimmerAgeFields fields={fields} />
      </div>
      <SwimmerProfileFields fields={fields} aboutSomeoneElse={aboutSomeoneElse} />
      {declaration && (
        <WhenApplies applies={minor} errors={fields.guardianDeclaration.errors}>
          <GuardianDeclarationField field={fields.guardianDeclaration} hint={<WithoutScript>Needed for a swimmer under 18.</WithoutScript>} />
        </WhenApplies>
      )}
    </>
  )
}

/** The card the pages that add and edit a swimmer sit in: the heading, the page's own lead and form, then the way back. */
export function SwimmerFormCard({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white px-4 py-10 sm:py-16">
      <div className="card mx-auto w-full max-w-3xl p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-extrabold text-brand-900 sm:text-3xl">{title}</h1>
        {children}
        <p className="mt-6 text-center text-sm">
          <Link to={href('/swimmers')} className="link">
            Back to My Swimmers
          </Link>
        </p>
      </div>
    </section>
  )
}

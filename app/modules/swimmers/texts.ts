// How a swimmer's profile reads on the pages that show it (the account's swimmers, staff's customer
// page, the data download): one row per answer, in the registration form's order.
import { GENDERS, HOW_DID_YOU_KNOW, optionLabel, SPECIALIZATIONS, SWIMMING_EXPERIENCE } from '~/modules/forms/choices'
import { formatLongDate } from '~/lib/lab-time'
import { ageOn, type KnownAge } from './age'

type Profile = KnownAge & {
  gender: string
  swimmingExperience: string
  academyName: string
  coachName: string
  specialization: string
  otherSpecialization: string | null
  participateInEvents: boolean
  strokeBestTime: string | null
  howDidYouKnow: string | null
  otherSource: string | null
}

/** "14 years (born 3 May 2012)" or "14 years"; `today` is the lab's date. */
export function ageText(age: KnownAge, today: string) {
  const years = ageOn(age, today)
  const text = `${years} ${years === 1 ? 'year' : 'years'}`
  return age.birthDate ? `${text} (born ${formatLongDate(age.birthDate)})` : text
}

export function swimmerProfileRows(swimmer: Profile, today: string): Array<[term: string, value: string]> {
  const other = (value: string | null, otherValue: string | null) => [value, otherValue].filter(Boolean).join(': ')
  const rows: Array<[string, string]> = [
    ['Age', ageText(swimmer, today)],
    ['Gender', optionLabel(GENDERS, swimmer.gender) ?? ''],
    ['Swimming Experience', optionLabel(SWIMMING_EXPERIENCE, swimmer.swimmingExperience) ?? ''],
    ['Academy Name', swimmer.academyName],
    ['Coach Name', swimmer.coachName],
    ['Specialization', other(optionLabel(SPECIALIZATIONS, swimmer.specialization), swimmer.otherSpecialization)],
    ['Participates in events', swimmer.participateInEvents ? 'Yes' : 'No'],
    ['Stroke Best Time', swimmer.strokeBestTime ?? ''],
    ['Heard of us through', other(optionLabel(HOW_DID_YOU_KNOW, swimmer.howDidYouKnow), swimmer.otherSource)],
  ]
  return rows.filter(([, value]) => value)
}

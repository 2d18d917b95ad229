// The choices and defaults of the registration form, for the pages that show them and for the
// schemas that check them; no zod here, so a page can show its form before the rules load.

export const GENDERS = [
  { value: 'male', label: 'Male' },
  { value: 'female', label: 'Female' },
  { value: 'other', label: 'Other' },
] as const

export const SWIMMING_EXPERIENCE = [
  { value: 'beginner', label: 'Beginner' },
  { value: 'intermediate', label: 'Intermediate' },
  { value: 'advanced', label: 'Advanced' },
] as const

export const SPECIALIZATIONS = [
  { value: 'freestyle', label: 'Freestyle' },
  { value: 'breaststroke', label: 'Breaststroke' },
  { value: 'butterfly', label: 'Butterfly' },
  { value: 'backstroke', label: 'Backstroke' },
  { value: 'individual_medley', label: 'Individual Medley' },
  { value: 'other', label: 'Other' },
] as const

/** Who the registration is for: the account holder themselves, or a child they register as parent or guardian. */
export const WHO_SWIMS = [
  { value: 'myself', label: 'Myself' },
  { value: 'child', label: 'My child / a swimmer I look after' },
] as const

export const PARTICIPATE_IN_EVENTS = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
] as const

export const HOW_DID_YOU_KNOW = [
  { value: 'instagram', label: 'Instagram' },
  { value: 'facebook', label: 'Facebook' },
  { value: 'google', label: 'Google' },
  { value: 'website', label: 'Website' },
  { value: 'friends_referrals', label: 'Friends / Referrals' },
  { value: 'other', label: 'Other' },
] as const

type Options = ReadonlyArray<{ value: string; label: string }>

/** The values of a list of choices, as zod's enum takes them. */
export const optionValues = <T extends Options>(options: T) => options.map((option) => option.value) as [T[number]['value'], ...T[number]['value'][]]

/** The label shown for a stored value, e.g. 'individual_medley' → 'Individual Medley'. */
export function optionLabel(options: Options, value: string | null | undefined) {
  return options.find((option) => option.value === value)?.label ?? null
}

/** What the registration form starts from; the person chooses their gender and how they heard of the lab themselves. */
export const REGISTRATION_DEFAULTS = {
  whoSwims: 'myself',
  swimmingExperience: 'beginner',
  specialization: 'freestyle',
  participateInEvents: 'no',
} as const

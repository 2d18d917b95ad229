// How old a swimmer is on a day, in the lab's calendar (Asia/Kolkata dates, YYYY-MM-DD), and
// whether a parent's consent is needed. Plain date arithmetic on the text of the dates: no time zone
// enters once the day is known (labToday gives it).

/** Below this age a swimmer's data is processed only with a parent's or guardian's consent. */
export const ADULT_AGE = 18

/** A swimmer's age as the lab knows it: an exact date of birth, or an age in years as given on a day. */
export type KnownAge = { birthDate: string | null; ageYears: number | null; ageGivenOn: string | null }

function parts(day: string) {
  return { year: Number(day.slice(0, 4)), monthDay: day.slice(5) }
}

/**
 * Whole years from `from` to `day`: a birthday counts once its month and day are reached, so someone
 * born on 29 February has their birthday on 1 March in other years, and someone born on 1 April is
 * a year older on 1 April, not on 31 March.
 */
export function wholeYearsBetween(from: string, day: string) {
  const start = parts(from)
  const end = parts(day)
  const years = end.year - start.year
  return end.monthDay < start.monthDay ? years - 1 : years
}

/**
 * The swimmer's age on `day`. From a date of birth it is exact; from an age given on an earlier day
 * it is the youngest the swimmer can be (the age given plus the whole years since), so a swimmer is
 * never taken for an adult before they surely are one.
 */
export function ageOn(age: KnownAge, day: string): number {
  if (age.birthDate) return wholeYearsBetween(age.birthDate, day)
  if (age.ageYears === null || !age.ageGivenOn) throw new Error('A swimmer has a date of birth or an age given on a day')
  return age.ageYears + Math.max(0, wholeYearsBetween(age.ageGivenOn, day))
}

/** Whether the swimmer is under 18 on `day`, so that a parent's consent is needed. */
export function isMinorOn(age: KnownAge, day: string) {
  return ageOn(age, day) < ADULT_AGE
}

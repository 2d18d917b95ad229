import { describe, expect, it } from 'vitest'
import { ageOn, isMinorOn, wholeYearsBetween } from './age'

const born = (birthDate: string) => ({ birthDate, ageYears: null, ageGivenOn: null })

describe("a swimmer's age on a day", () => {
  it('turns 18 on the 18th birthday, not the day before, across 31 March and 1 April', () => {
    expect(ageOn(born('2008-04-01'), '2026-03-31')).toBe(17)
    expect(ageOn(born('2008-04-01'), '2026-04-01')).toBe(18)
    expect(isMinorOn(born('2008-04-01'), '2026-03-31')).toBe(true)
    expect(isMinorOn(born('2008-04-01'), '2026-04-01')).toBe(false)
    expect(ageOn(born('2008-03-31'), '2026-03-31')).toBe(18)
  })

  it('counts a 29 February birthday on 1 March in other years, and on 29 February in leap years', () => {
    expect(ageOn(born('2008-02-29'), '2026-02-28')).toBe(17)
    expect(ageOn(born('2008-02-29'), '2026-03-01')).toBe(18)
    expect(ageOn(born('2012-02-29'), '2030-02-28')).toBe(17)
    expect(ageOn(born('2012-02-29'), '2030-03-01')).toBe(18)
    expect(ageOn(born('2012-02-29'), '2032-02-29')).toBe(20)
    expect(ageOn(born('2012-02-29'), '2032-02-28')).toBe(19)
  })

  it('from an age given on a day, is the youngest the swimmer can be: the age plus the whole years since', () => {
    const givenAt17 = { birthDate: null, ageYears: 17, ageGivenOn: '2026-06-15' }
    expect(ageOn(givenAt17, '2026-06-15')).toBe(17)
    expect(ageOn(givenAt17, '2027-06-14')).toBe(17)
    expect(isMinorOn(givenAt17, '2027-06-14')).toBe(true)
    expect(ageOn(givenAt17, '2027-06-15')).toBe(18)
    expect(isMinorOn(givenAt17, '2027-06-15')).toBe(false)
  })

  it('counts whole years only', () => {
    expect(wholeYearsBetween('2020-12-31', '2021-12-30')).toBe(0)
    expect(wholeYearsBetween('2020-12-31', '2021-12-31')).toBe(1)
  })
})

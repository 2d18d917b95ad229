import { describe, expect, it } from 'vitest'
import { gstinCheckCharacter, gstinProblem } from './gstin'

describe('GSTIN', () => {
  it('computes the check character of published GSTINs', () => {
    for (const gstin of ['27AAPFU0939F1ZV', '29AAGCB7383J1Z4', '27AAACR5055K1Z7']) expect(gstinCheckCharacter(gstin)).toBe(gstin[14])
  })

  it('accepts a GSTIN of the venue’s state with the right check character', () => {
    expect(gstinProblem('27AAPFU0939F1ZV', '27')).toBeNull()
  })

  it('says what is wrong: the length, the format, the check character, the state', () => {
    expect(gstinProblem('27AAPFU0939F1Z', '27')).toMatch(/15 characters; this one has 14/)
    expect(gstinProblem('27AAPFU0939F1AV', '27')).toMatch(/as issued/)
    expect(gstinProblem('27AAPFU0939F1ZW', '27')).toMatch(/last character does not match/)
    expect(gstinProblem('29AAGCB7383J1Z4', '27')).toMatch(/state 29.*27/)
  })
})

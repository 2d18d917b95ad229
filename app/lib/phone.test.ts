import { describe, expect, it } from 'vitest'
import { INVALID_WHATSAPP_NUMBER, NO_SUCH_NUMBER, phoneField, whatsappOptInField } from './phone-field'
import { digitCount, formatPhone, toE164, whatsappChatLink, whatsappMessageLink } from './phone'

describe('toE164', () => {
  it.each([
    ['9845012345', '+919845012345'],
    ['98450 12345', '+919845012345'],
    ['98450-12345', '+919845012345'],
    [' 984.501.2345 ', '+919845012345'],
    ['(984) 501 2345', '+919845012345'],
    ['09845012345', '+919845012345'],
    ['919845012345', '+919845012345'],
    ['+919845012345', '+919845012345'],
    ['+91 98450 12345', '+919845012345'],
    ['+91-98450-12345', '+919845012345'],
    ['6000000000', '+916000000000'],
    ['7012345678', '+917012345678'],
    ['+44 7911 123456', '+447911123456'],
    ['+1 (415) 555-0132', '+14155550132'],
    ['+971 50 123 4567', '+971501234567'],
    ['+65 8123 4567', '+6581234567'],
  ])('%s is %s', (typed, e164) => {
    expect(toE164(typed)).toBe(e164)
  })

  it.each([
    ['', 'nothing'],
    ['   ', 'only spaces'],
    ['98450 1234x', 'a letter'],
    ['call me', 'words'],
    ['984501234', 'nine digits'],
    ['98450123456', 'eleven digits without a country code'],
    ['5845012345', 'an Indian number not starting 6-9'],
    ['044 2345 6789', 'a Chennai landline'],
    ['+91 44 2345 6789', 'a landline with the country code'],
    ['+9198450123456', 'too many digits after +91'],
    ['+91984501234', 'too few digits after +91'],
    ['0919845012345', '0 and 91 together'],
    ['+1234567', 'too short an international number'],
    ['+1234567890123456', 'too long an international number'],
    ['+0 7700 900123', 'a country code starting 0'],
    ['++919845012345', 'two plus signs'],
    ['9845+012345', 'a plus in the middle'],
    ['9845012345#1', 'an extension'],
    ['٩٨٤٥٠١٢٣٤٥', 'digits of another script'],
    ['+999999999999999', 'no country has the code 999'],
    ['+44 7700 900123', 'the shape of a British mobile, in a range given to no one'],
    ['+91 5845012345', 'an Indian number not starting 6-9, with its country code'],
    ['+1 555 012 3456', 'an American number with no such area code'],
  ])('%s is refused (%s)', (typed) => {
    expect(toE164(typed)).toBeNull()
  })

  it('gives the same number however it was typed, so two of them compare equal', () => {
    const typings = ['9845012345', '098450 12345', '91 98450 12345', '+91 (98450) 12345']
    expect(new Set(typings.map(toE164))).toEqual(new Set(['+919845012345']))
  })

  it('is idempotent: a stored number reads back as itself', () => {
    for (const stored of ['+919845012345', '+447911123456']) expect(toE164(stored)).toBe(stored)
  })
})

describe('formatPhone and friends', () => {
  it('shows an Indian mobile in groups and any other number as stored', () => {
    expect(formatPhone('+919845012345')).toBe('+91 98450 12345')
    expect(formatPhone('+447911123456')).toBe('+447911123456')
  })

  it('counts digits whatever surrounds them, and links a chat only for a real number', () => {
    expect(digitCount('+91 (984) 50-12345')).toBe(12)
    expect(whatsappChatLink('98450 12345', 'Hello there')).toBe('https://wa.me/919845012345?text=Hello%20there')
    expect(whatsappChatLink('044 2345 6789')).toBeNull()
  })

  it('writes a WhatsApp message for the sender to send to whom they choose, the whole text encoded', () => {
    expect(whatsappMessageLink('Here are Asha’s results: https://swimlab.in/shared/a-b_c?x=1&y=2')).toBe('https://wa.me/?text=Here%20are%20Asha%E2%80%99s%20results%3A%20https%3A%2F%2Fswimlab.in%2Fshared%2Fa-b_c%3Fx%3D1%26y%3D2')
  })
})

describe('phoneField', () => {
  const field = phoneField({ tooShort: 'WhatsApp number must be at least 10 digits', invalid: INVALID_WHATSAPP_NUMBER })
  const messageOf = (typed: unknown) => field.safeParse(typed).error?.issues.map((issue) => issue.message)

  it('keeps the number in E.164', () => {
    expect(field.parse(' 98450-12345 ')).toBe('+919845012345')
    expect(field.parse('+44 7911 123456')).toBe('+447911123456')
  })

  it('says "too few digits" for too few, and one message for a number that is not a mobile', () => {
    expect(messageOf('12345')).toEqual(['WhatsApp number must be at least 10 digits'])
    expect(messageOf(undefined)).toEqual(['WhatsApp number must be at least 10 digits'])
    expect(messageOf('044 2345 6789')).toEqual([INVALID_WHATSAPP_NUMBER])
    expect(messageOf('98450 12345 ext 9')).toEqual([INVALID_WHATSAPP_NUMBER])
    expect(messageOf('9'.repeat(21))).toEqual(['Please use at most 20 characters', INVALID_WHATSAPP_NUMBER])
  })

  it('says so when a number of the right shape belongs to no one: no such country code, or no such range', () => {
    expect(messageOf('+999999999999999')).toEqual([NO_SUCH_NUMBER])
    expect(messageOf('+44 7700 900123')).toEqual([NO_SUCH_NUMBER])
  })
})

describe('whatsappOptInField', () => {
  it('is ticked only by a ticked checkbox (or the same answer kept between steps)', () => {
    expect(whatsappOptInField.parse('on')).toBe(true)
    expect(whatsappOptInField.parse(true)).toBe(true)
    for (const other of [undefined, '', 'off', 'true', 'yes', false]) expect(whatsappOptInField.parse(other)).toBe(false)
  })
})

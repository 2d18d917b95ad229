import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { NAME_MESSAGE } from '~/modules/forms/fields'
import { registrationSchema } from './schemas'
import { PublicBookingSchema } from '~/modules/booking/schemas'
import { StaffBookingSchema } from '~/modules/booking/staff-schemas'
import { CampRegistrationSchema } from '~/modules/camps/schemas'
import { CoachSchema, TeamMemberSchema } from '~/modules/site/schemas'
import { addDays, labToday } from '~/lib/lab-time'

/** The first error of each field, as the form shows it next to the field. */
function errors(schema: z.ZodType, values: Record<string, string>) {
  const form = new FormData()
  for (const [name, value] of Object.entries(values)) form.append(name, value)
  const reply = parseWithZod(form, { schema }).reply()
  return Object.fromEntries(Object.entries(reply.error ?? {}).map(([name, messages]) => [name, messages?.[0]]))
}

const soon = addDays(labToday(), 10)
const RegistrationSchema = registrationSchema(labToday())

/** Every form where a person's or a swimmer's name is typed, with a submission it accepts. */
const NAME_FORMS: Array<{ form: string; schema: z.ZodType; field: string; valid: Record<string, string> }> = [
  {
    form: 'registration',
    schema: RegistrationSchema,
    field: 'name',
    valid: { whoSwims: 'myself', name: 'Asha Rao', email: 'asha@example.com', password: 'butterfly-2027', phone: '9845012345', age: '26', currentLocation: 'Bengaluru', gender: 'female', swimmingExperience: 'advanced', academyName: 'NA', coachName: 'NA', specialization: 'butterfly', participateInEvents: 'yes', howDidYouKnow: 'google' },
  },
  {
    form: 'registration (coach)',
    schema: RegistrationSchema,
    field: 'coachName',
    valid: { whoSwims: 'myself', name: 'Asha Rao', email: 'asha@example.com', password: 'butterfly-2027', phone: '9845012345', age: '26', currentLocation: 'Bengaluru', gender: 'female', swimmingExperience: 'advanced', academyName: 'NA', coachName: 'NA', specialization: 'butterfly', participateInEvents: 'yes', howDidYouKnow: 'google' },
  },
  { form: '/booking', schema: PublicBookingSchema, field: 'name', valid: { name: 'Ravi Kumar', email: 'ravi@example.com', service: 'race', date: soon, time: '10:00' } },
  { form: 'camp registration and waitlist', schema: CampRegistrationSchema, field: 'name', valid: { name: 'Arjun Menon', email: 'menon@example.com', phone_number: '9845012345', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch1' } },
  { form: 'staff booking', schema: StaffBookingSchema, field: 'name', valid: { name: 'Ravi Kumar', email: 'ravi@example.com', product: 'single_race', date: soon, time: '09:00', origin: 'complimentary' } },
  { form: 'coach (settings)', schema: CoachSchema, field: 'name', valid: { name: 'Coach', credentials: 'Level 3' } },
  { form: 'team member (settings)', schema: TeamMemberSchema, field: 'name', valid: { index: '0', name: 'Member', role: 'Analyst', bio: 'Works here.' } },
]

const REAL_NAMES = [
  'K. S. Rao',
  'K.S. Rao',
  'K.S.Rao',
  'A.Ramesh',
  'Ravi Kumar',
  "D'Souza",
  "O'Brien-Nair",
  'Mary-Anne Fernandes',
  'Lakshmi Narayanan Jr.',
  'रवि कुमार',
  'ಅರ್ಜುನ್ ಮೆನನ್',
  'லக்ஷ்மி',
  'శ్రీనివాస్ రెడ్డి',
  'അര്‍ജുന്‍', // Malayalam with ZWJ (chillu), as older keyboards type it
  'ক্ষমা', // Bengali
  'Zoë Ångström',
  'ಶ್ರೀನಿವಾಸ',
  'क्षितिज',
  'Ravi O’Brien', // the apostrophe phones type
]

const PHISHING_NAMES = [
  'Ravi\nClick http://evil.example to pay',
  'Ravi\r\nSecond line',
  'Ravi\tKumar',
  'Ravi\u0000Kumar',
  'Ravi\u202egnp.exe',
  'Ravi\u2066Kumar\u2069',
  'Ravi\u2028Kumar',
  'Ravi\u200bKumar',
  'http://evil.example',
  'https://pay-here.com',
  'HTTPS://PAY.EXAMPLE',
  'Pay at www.example',
  'Ravi ftp://files',
  'Ravi, see evil.example/x',
  'pay-here.com',
  'Pay-Here.COM now',
  'x.co/pay',
  'ravi@evil.example',
  'pay\u200d-here\u200c.com', // joiners that hide the dot from a plain check
  'pay-here\uff0ecom', // a full-width dot
  'pay-here\u3002com', // an ideographic full stop, which browsers read as a dot
  'ｗｗｗ．ｅｖｉｌ．ｃｏｍ',
  'mailto:ravi',
  // Digits of any script: a phone number or an amount carried into a message as a name.
  'Pay Rs 500 By GPay To 9812345678',
  'Pay Rs ५०० to ९८१२३४५६७८',
  'Pay ೫೦೦ now',
  'Ravi 2',
  // Signs that are not part of a name.
  'Ravi (call me)',
  'Ravi, pay now!',
  'Ravi: ₹500',
  'Ravi/Kumar',
  'Ravi 🏊',
]

describe('the one name rule, on every form that takes a name', () => {
  for (const { form, schema, field, valid } of NAME_FORMS) {
    it(`${form}: real names pass, with Indian scripts, initials, apostrophes and hyphens`, () => {
      for (const name of REAL_NAMES) expect(errors(schema, { ...valid, [field]: name }), name).toEqual({})
    })

    it(`${form}: names with control characters or anything link-like are refused next to the field`, () => {
      for (const name of PHISHING_NAMES) expect(errors(schema, { ...valid, [field]: name }), JSON.stringify(name)).toEqual({ [field]: NAME_MESSAGE })
    })
  }

  it("the lab's own settings may keep a name still to be supplied, in the lab's placeholder", () => {
    expect(errors(CoachSchema, { name: '[Coach name — to be supplied by the lab]', credentials: 'Level 3' })).toEqual({})
    expect(errors(TeamMemberSchema, { index: '0', name: '[Name — to be supplied by the lab]', role: 'Analyst', bio: 'Works here.' })).toEqual({})
    expect(errors(RegistrationSchema, { ...NAME_FORMS[0]!.valid, name: '[Name — to be supplied by the lab]' })).toEqual({ name: NAME_MESSAGE })
  })

  it('keeps each form its own message for a missing or too short name', () => {
    expect(errors(PublicBookingSchema, { email: 'ravi@example.com', service: 'race', date: soon, time: '10:00' })).toEqual({ name: 'Please enter your full name' })
    expect(errors(PublicBookingSchema, { name: 'R', email: 'ravi@example.com', service: 'race', date: soon, time: '10:00' })).toEqual({ name: 'Name must be at least 2 characters' })
    expect(errors(CoachSchema, { name: ' ', credentials: 'Level 3' })).toEqual({ name: 'Enter the name' })
    expect(errors(CampRegistrationSchema, { name: 'x'.repeat(101), email: 'menon@example.com', phone_number: '9845012345', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch1' })).toEqual({ name: 'Please use at most 100 characters' })
  })
})

describe('other free text', () => {
  const booking = { name: 'Ravi Kumar', email: 'ravi@example.com', service: 'race', date: soon, time: '10:00' }
  const staffBooking = { name: 'Ravi Kumar', email: 'ravi@example.com', product: 'single_race', date: soon, time: '09:00', origin: 'complimentary' }

  it('notes keep their line breaks (as a text area sends them) but refuse other control characters', () => {
    for (const schema of [PublicBookingSchema, StaffBookingSchema]) {
      const values = schema === PublicBookingSchema ? booking : staffBooking
      expect(errors(schema, { ...values, notes: 'Coach will attend.\r\nBring the 2025 times.\nSee coach.example.com' })).toEqual({})
      for (const notes of ['Tab\there', 'NUL\u0000', 'Right\u202eto left', 'Bell\u0007']) {
        expect(errors(schema, { ...values, notes }), JSON.stringify(notes)).toEqual({ notes: 'Please remove special characters such as tabs or invisible marks' })
      }
    }
  })

  it("the registration's one-line fields refuse control characters", () => {
    const valid = NAME_FORMS[0]!.valid
    expect(errors(RegistrationSchema, { ...valid, currentLocation: 'Bengaluru\nhttp://evil.example' })).toEqual({ currentLocation: 'Please remove special characters such as tabs or invisible marks' })
    expect(errors(RegistrationSchema, { ...valid, academyName: 'Swim\u202eAcademy' })).toEqual({ academyName: 'Please remove special characters such as tabs or invisible marks' })
  })
})

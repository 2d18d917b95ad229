import { href } from 'react-router'
import { isPlaceholder } from './schemas'
import type { settingsForStaff } from './staff.server'

/** Something the public site still shows as a placeholder, and the field on the settings page that sets it. */
type LaunchGap = { what: string; href: string }

/**
 * The ids of the settings page's forms; a field's id is its form's id, "-" and its name, so the
 * list below can link to the very field that fixes a gap.
 */
export const SETTINGS_FORM_IDS = {
  contact: 'contact-details',
  gst: 'gst-details',
  grievance: 'grievance-officer',
  coach: 'coach',
  member: (index: number) => `team-member-${index + 1}`,
}

const fieldLink = (formId: string, field: string) => `${href('/admin/settings')}#${formId}-${field}`

/**
 * What stands between the site and launch: every required setting the public pages still show as
 * "to be supplied by the lab", in the order of the settings page. Optional ones (the website, the
 * WhatsApp number, social links, the GSTIN) are not here: left empty, the pages simply leave them out.
 */
export function launchGaps(settings: Awaited<ReturnType<typeof settingsForStaff>>): LaunchGap[] {
  const gaps: LaunchGap[] = []
  const add = (missing: boolean, what: string, formId: string, field: string) => {
    if (missing) gaps.push({ what, href: fieldLink(formId, field) })
  }
  const { contact, gst, grievance, coach, member } = SETTINGS_FORM_IDS
  add(isPlaceholder(settings.postalAddress), 'Postal address', contact, 'postalAddress')
  add(isPlaceholder(settings.phone), 'Phone number', contact, 'phone')
  add(isPlaceholder(settings.supportEmail), 'Support e-mail', contact, 'supportEmail')
  add(isPlaceholder(settings.infoEmail), 'General e-mail', contact, 'infoEmail')
  add(isPlaceholder(settings.legalName), 'Registered name of the LLP', gst, 'legalName')
  const officerNamed = settings.grievanceOfficerName !== '' && !isPlaceholder(settings.grievanceOfficerName)
  add(!officerNamed || !settings.grievanceOfficerEmail, 'Grievance officer (privacy policy)', grievance, officerNamed ? 'grievanceOfficerEmail' : 'grievanceOfficerName')
  const coachNamed = !settings.coach.placeholder && !isPlaceholder(settings.coach.name)
  add(!coachNamed || isPlaceholder(settings.coach.credentials), 'Camp coach', coach, coachNamed ? 'credentials' : 'name')
  settings.team.forEach((person, index) => {
    const named = !person.placeholder && !isPlaceholder(person.name)
    const field = !named ? 'name' : isPlaceholder(person.role) ? 'role' : 'bio'
    add(!named || isPlaceholder(person.role) || isPlaceholder(person.bio), `Team member ${index + 1} (about page)`, member(index), field)
  })
  return gaps
}

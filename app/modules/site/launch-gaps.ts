import { isPlaceholder } from './schemas'
import type { settingsForStaff } from './staff.server'

/** Something the public site still shows as a placeholder, and where staff set it. */
type LaunchGap = { what: string; href: string }

const SETTINGS = '/admin/settings'

/**
 * What stands between the site and launch: every setting the public pages still show as "to be
 * supplied by the lab" (or leave out), each with the settings panel that sets it, in the order of
 * that page.
 */
export function launchGaps(settings: Awaited<ReturnType<typeof settingsForStaff>>): LaunchGap[] {
  const gaps: LaunchGap[] = []
  const add = (missing: boolean, what: string, panel: string) => {
    if (missing) gaps.push({ what, href: `${SETTINGS}#${panel}` })
  }
  add(isPlaceholder(settings.postalAddress), 'Postal address', 'contact')
  add(isPlaceholder(settings.phone), 'Phone number', 'contact')
  add(isPlaceholder(settings.supportEmail), 'Support e-mail', 'contact')
  add(isPlaceholder(settings.infoEmail), 'General e-mail', 'contact')
  const social = settings.socialLinks
  add(!social.linkedin || !social.instagram || !social.twitter, 'Social links (LinkedIn, Instagram, X)', 'contact')
  add(isPlaceholder(settings.legalName), 'Registered name of the LLP', 'gst')
  add(settings.gstin === '', 'GSTIN', 'gst')
  add(!settings.grievanceOfficerName || !settings.grievanceOfficerEmail, 'Grievance officer (privacy policy)', 'grievance')
  add(settings.coach.placeholder || isPlaceholder(settings.coach.name) || isPlaceholder(settings.coach.credentials), 'Coach', 'people')
  add(settings.team.some((member) => member.placeholder || isPlaceholder(member.name)), 'Team on the about page', 'people')
  return gaps
}

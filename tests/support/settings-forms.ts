import { SITE_SETTINGS_SEED } from '~/db/seed.server'

/** The admin's contact-details form as the seed fills it, with `overrides` typed over it. */
export const contactForm = (overrides: Record<string, string> = {}) => ({
  intent: 'contact',
  sessionLocation: SITE_SETTINGS_SEED.sessionLocation,
  venueName: SITE_SETTINGS_SEED.venueName,
  postalAddress: SITE_SETTINGS_SEED.postalAddress,
  phone: SITE_SETTINGS_SEED.phone,
  phoneHours: SITE_SETTINGS_SEED.phoneHours,
  supportEmail: SITE_SETTINGS_SEED.supportEmail,
  infoEmail: SITE_SETTINGS_SEED.infoEmail,
  websiteUrl: '',
  whatsappNumber: '',
  linkedin: '',
  instagram: '',
  twitter: '',
  ...overrides,
})

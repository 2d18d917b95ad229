import { config } from '~/config.server'

export type WhatsAppSettings = {
  accessToken: string
  phoneNumberId: string
  appSecret: string
  verifyToken: string
  apiUrl: string
}

/** The Cloud API settings, or null when WhatsApp is off. */
export function whatsappSettings(): WhatsAppSettings | null {
  const env = config()
  if (!env.WHATSAPP_ACCESS_TOKEN || !env.WHATSAPP_PHONE_NUMBER_ID || !env.WHATSAPP_APP_SECRET || !env.WHATSAPP_VERIFY_TOKEN) return null
  return {
    accessToken: env.WHATSAPP_ACCESS_TOKEN,
    phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID,
    appSecret: env.WHATSAPP_APP_SECRET,
    verifyToken: env.WHATSAPP_VERIFY_TOKEN,
    apiUrl: env.WHATSAPP_API_URL,
  }
}

/** Whether the site sends WhatsApp messages at all. */
export function whatsappEnabled() {
  return whatsappSettings() !== null
}

import { afterEach, beforeEach } from 'vitest'
import { config, loadConfig, setConfig } from '~/config.server'

/** The four WhatsApp settings a module test turns WhatsApp on with (the Cloud API itself is never called). */
export const WHATSAPP_TEST_SETTINGS = {
  WHATSAPP_ACCESS_TOKEN: 'EAAG-test-access-token-0123456789',
  WHATSAPP_PHONE_NUMBER_ID: '123456789012345',
  WHATSAPP_APP_SECRET: 'test-app-secret-0123456789',
  WHATSAPP_VERIFY_TOKEN: 'test-verify-token-0123456789',
}

/** Turns WhatsApp on for each test of the file, and back to the configuration it had after. */
export function useWhatsAppOn() {
  let before: ReturnType<typeof config>
  beforeEach(() => {
    before = config()
    setConfig(loadConfig({ ...process.env, ...WHATSAPP_TEST_SETTINGS }))
  })
  afterEach(() => setConfig(before))
}

/**
 * The WhatsApp message templates the site sends. WhatsApp delivers a business's first message to a
 * person only as a template Meta has approved, so each one here must be registered, under exactly
 * this name, language and text, in the WhatsApp Manager (category Utility); the README lists them.
 * `{{1}}`, `{{2}}`… are filled in per message, in order. Every template ends with the same footer.
 */

/** A template, under the name it is registered with in WhatsApp Manager (its key in WHATSAPP_TEMPLATES). */
export type WhatsAppTemplate = {
  /** What staff see for it in the admin's messages. */
  title: string
  body: string
  /** What each parameter is, in order, with the sample Meta asks for when the template is submitted. */
  parameters: ReadonlyArray<{ meaning: string; sample: string }>
}

export const WHATSAPP_TEMPLATE_LANGUAGE = 'en'

export const WHATSAPP_FOOTER = 'Reply STOP to stop WhatsApp messages.'

export const WHATSAPP_TEMPLATES = {
  booking_confirmed: {
    title: 'Booking confirmed',
    body: 'Hello {{1}}, your booking is confirmed: {{2}} for {{3}} on {{4}}, {{5}}, at the Swimming Sport Science Lab. Booking reference {{6}}. The details are in your e-mail.',
    parameters: [
      { meaning: 'the name of the person who booked', sample: 'Priya' },
      { meaning: 'the service', sample: '3-Day Analysis Session' },
      { meaning: 'the swimmer', sample: 'Aarav' },
      { meaning: 'the session days', sample: 'Mon 7, Tue 8 and Wed 9 December 2026' },
      { meaning: 'the session time', sample: '7:00 AM - 9:00 AM' },
      { meaning: 'the booking reference', sample: 'SSL-2026-0042' },
    ],
  },
  session_reminder: {
    title: 'Reminder before Day 1',
    body: 'Hello {{1}}, a reminder: {{2}} for {{3}} starts tomorrow, {{4}}, at the Swimming Sport Science Lab. Please arrive 15 minutes early. Booking reference {{5}}.',
    parameters: [
      { meaning: 'the name of the person who booked', sample: 'Priya' },
      { meaning: 'the service', sample: '3-Day Analysis Session' },
      { meaning: 'the swimmer', sample: 'Aarav' },
      { meaning: 'the day and time', sample: 'Mon 7 December 2026, 7:00 AM - 9:00 AM' },
      { meaning: 'the booking reference', sample: 'SSL-2026-0042' },
    ],
  },
  payment_failed: {
    title: 'Payment failed',
    body: 'Hello {{1}}, your payment of {{2}} for {{3}} did not go through. You can try again here: {{4}} (reference {{5}}).',
    parameters: [
      { meaning: 'the name of the person paying', sample: 'Priya' },
      { meaning: 'the amount', sample: '₹15,000' },
      { meaning: 'what the payment was for', sample: '3-Day Analysis Session for Aarav' },
      { meaning: 'the link to pay again', sample: 'https://swimlab.in/book-slot' },
      { meaning: 'the reference', sample: 'SSL-2026-0042' },
    ],
  },
  refund_started: {
    title: 'Refund started',
    body: 'Hello {{1}}, we have started a refund of {{2}} for {{3}} (reference {{4}}). It usually reaches your account within 5 to 7 working days.',
    parameters: [
      { meaning: 'the name of the person who paid', sample: 'Priya' },
      { meaning: 'the amount', sample: '₹15,000' },
      { meaning: 'what the payment was for', sample: '3-Day Analysis Session for Aarav' },
      { meaning: 'the reference', sample: 'SSL-2026-0042' },
    ],
  },
  refund_completed: {
    title: 'Refund completed',
    body: 'Hello {{1}}, your refund of {{2}} for {{3}} (reference {{4}}) is complete. The credit note is in your e-mail.',
    parameters: [
      { meaning: 'the name of the person who paid', sample: 'Priya' },
      { meaning: 'the amount', sample: '₹15,000' },
      { meaning: 'what the payment was for', sample: '3-Day Analysis Session for Aarav' },
      { meaning: 'the reference', sample: 'SSL-2026-0042' },
    ],
  },
  waitlist_seat_offered: {
    title: 'Waitlist seat offered',
    body: 'Hello {{1}}, a seat is free for {{2}} in {{3}}. It is kept for you until {{4}}. Take it here: {{5}}',
    parameters: [
      { meaning: 'the name of the parent', sample: 'Priya' },
      { meaning: 'the swimmer', sample: 'Aarav' },
      { meaning: 'the camp and batch', sample: 'Summer Camp 2027, Morning batch' },
      { meaning: 'when the offer ends', sample: 'Tue 8 December 2026, 7:00 PM' },
      { meaning: 'the link to take the seat', sample: 'https://swimlab.in/camp-registration/offer?key=…' },
    ],
  },
  camp_confirmed: {
    title: 'Camp registration confirmed',
    body: 'Hello {{1}}, {{2}} is registered for {{3}}, {{4}}. Registration reference {{5}}. The details and receipt are in your e-mail.',
    parameters: [
      { meaning: 'the name of the parent', sample: 'Priya' },
      { meaning: 'the swimmers', sample: 'Aarav and Diya' },
      { meaning: 'the camp and batch', sample: 'Summer Camp 2027, Morning batch' },
      { meaning: 'the camp dates', sample: '5 to 16 April 2027' },
      { meaning: 'the registration reference', sample: 'CAMP-2027-0042' },
    ],
  },
  report_ready: {
    title: 'Analysis results ready',
    body: 'Hello {{1}}, the analysis results for {{2}} are ready: {{3}} (reference {{4}}).',
    parameters: [
      { meaning: 'the name of the person who booked', sample: 'Priya' },
      { meaning: 'the swimmer', sample: 'Aarav' },
      { meaning: 'the link to the results', sample: 'https://swimlab.in/analyses/42' },
      { meaning: 'the booking reference', sample: 'SSL-2026-0042' },
    ],
  },
  next_analysis_due: {
    title: 'Next analysis due',
    body: 'Hello {{1}}, it is time for the next analysis of {{2}}, to see how the stroke has changed since {{3}}. Book it here: {{4}}',
    parameters: [
      { meaning: 'the name of the account holder', sample: 'Priya' },
      { meaning: 'the swimmer', sample: 'Aarav' },
      { meaning: 'the date of the last analysis', sample: '7 June 2026' },
      { meaning: 'the link to book', sample: 'https://swimlab.in/book-slot' },
    ],
  },
} satisfies Record<string, WhatsAppTemplate>

export type WhatsAppTemplateName = keyof typeof WHATSAPP_TEMPLATES

/** How many `{{n}}` a body has. */
export function placeholderCount(body: string) {
  return new Set(body.match(/\{\{\d+\}\}/g) ?? []).size
}

/**
 * A template parameter as WhatsApp accepts it: one line (no new lines or tabs, no more than four
 * spaces in a row), not empty, and not longer than WhatsApp's limit.
 */
export function templateParameter(value: string) {
  const text = value.replace(/[\r\n\t]+/g, ' ').replace(/ {4,}/g, '   ').trim()
  return (text || '-').slice(0, 1000)
}

/** The text a person reads for a template with these parameters, footer included. */
export function renderTemplate(name: WhatsAppTemplateName, parameters: readonly string[]) {
  const body = WHATSAPP_TEMPLATES[name].body.replace(/\{\{(\d+)\}\}/g, (_, index: string) => parameters[Number(index) - 1] ?? '')
  return `${body}\n\n${WHATSAPP_FOOTER}`
}

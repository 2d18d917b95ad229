/**
 * The WhatsApp message templates the site sends. WhatsApp delivers a business's first message to a
 * person only as a template Meta has approved, so each one here must be registered, under exactly
 * this name, category, language and text, in the WhatsApp Manager; the README lists them.
 * `{{1}}`, `{{2}}`… are filled in per message, in order. Every Utility template ends with the same
 * footer; the Authentication one (a code proving a number) has the text and button Meta sets for it.
 */

/** A template, under the name it is registered with in WhatsApp Manager (its key in WHATSAPP_TEMPLATES). */
export type WhatsAppTemplate = {
  /** What staff see for it in the admin's messages. */
  title: string
  /** Utility unless said: Authentication templates carry a code and a "Copy code" button, with Meta's own wording. */
  category?: 'Authentication'
  body: string
  /** What each parameter is, in order, with the sample Meta asks for when the template is submitted. */
  parameters: ReadonlyArray<{ meaning: string; sample: string }>
}

export const WHATSAPP_TEMPLATE_LANGUAGE = 'en'

export const WHATSAPP_FOOTER = 'Reply STOP to stop WhatsApp messages.'

/** How long a code sent on WhatsApp works, in the footer Meta adds to the Authentication template. */
export const WHATSAPP_CODE_MINUTES = 30

/** The footer and the button of an Authentication template, as Meta words them. */
export const AUTHENTICATION_FOOTER = `This code expires in ${WHATSAPP_CODE_MINUTES} minutes.`
export const AUTHENTICATION_BUTTON = 'Copy code'

export const WHATSAPP_TEMPLATES = {
  confirm_whatsapp_messages: {
    title: 'Confirm WhatsApp messages',
    body: 'Someone asked the Swimming Sport Science Lab, on its website, to send booking updates to this WhatsApp number. If it was you, reply START to get them. If it was not, please ignore this message: nothing more is sent unless you reply START.',
    parameters: [],
  },
  verification_code: {
    title: 'Code to confirm the number',
    category: 'Authentication',
    body: '*{{1}}* is your verification code. For your security, do not share this code.',
    parameters: [{ meaning: 'the code', sample: '482913' }],
  },
  booking_confirmed: {
    title: 'Booking confirmed',
    body: 'Hello {{1}}, your booking is confirmed and paid: {{2}} for {{3}}, {{4}}, at {{5}}. Booking reference {{6}}. The details and the calendar file are in your e-mail.',
    parameters: [
      { meaning: 'the name of the person who booked', sample: 'Priya Sharma' },
      { meaning: 'the service', sample: '3-Day Analysis Session' },
      { meaning: 'the swimmer', sample: 'Aarav Sharma' },
      { meaning: 'each session day with its time', sample: 'Day 1: Monday, 7 December 2026, 7:00 AM - 9:00 AM; Day 2: Tuesday, 8 December 2026, 7:00 AM - 9:00 AM; Day 3: Wednesday, 9 December 2026, 7:00 AM - 9:00 AM' },
      { meaning: 'where: the Swimming Sport Science Lab, or a venue away and its city', sample: 'Balewadi Aquatics, Pune' },
      { meaning: 'the booking reference', sample: 'SSL-2026-0042' },
    ],
  },
  session_reminder: {
    title: 'Reminder before Day 1',
    body: 'Hello {{1}}, a reminder: the {{2}} for {{3}} (booking reference {{4}}) starts tomorrow, {{5}}, at {{6}}. Please arrive 15 minutes early.',
    parameters: [
      { meaning: 'the name of the person who booked', sample: 'Priya Sharma' },
      { meaning: 'the service', sample: '3-day analysis session' },
      { meaning: 'the swimmer', sample: 'Aarav Sharma' },
      { meaning: 'the booking reference', sample: 'SSL-2026-0042' },
      { meaning: 'the first day and its time', sample: 'Monday, 7 December 2026, 7:00 AM - 9:00 AM' },
      { meaning: 'where: the Swimming Sport Science Lab, or a venue away and its city', sample: 'Balewadi Aquatics, Pune' },
    ],
  },
  camp_reminder: {
    title: 'Reminder before the camp',
    body: 'A reminder: {{1}} starts tomorrow, {{2}}, for {{3}} (registration reference {{4}}). Batch: {{5}}, every day, at {{6}}. Please arrive 15 minutes before the batch with swimming gear, a towel and a water bottle.',
    parameters: [
      { meaning: 'the camp', sample: 'Summer Camp 2027' },
      { meaning: 'the first day of the camp', sample: '5 April 2027' },
      { meaning: 'the swimmer', sample: 'Aarav Sharma' },
      { meaning: 'the registration reference', sample: 'CAMP-2027-0042' },
      { meaning: 'the batch and its times', sample: 'Morning batch, 7:00 AM - 9:00 AM' },
      { meaning: 'the venue', sample: 'Padukone-Dravid Centre for Sports Excellence, Bangalore' },
    ],
  },
  payment_failed: {
    title: 'Payment failed',
    body: 'Your payment of {{1}} for {{2}} (reference {{3}}) did not go through, so it is not confirmed and the seat is no longer held for you. You can try again here: {{4}} If you have booked again already, please ignore this message.',
    parameters: [
      { meaning: 'the amount', sample: '₹15,000.00' },
      { meaning: 'what the payment was for', sample: '3-Day Analysis Session for Aarav Sharma' },
      { meaning: 'the booking or registration reference', sample: 'SSL-2026-0042' },
      { meaning: 'the link to book and pay again', sample: 'https://swimlab.in/book-slot?date=2026-12-07' },
    ],
  },
  refund_started: {
    title: 'Refund started',
    body: 'We could not confirm {{1}} (reference {{2}}): {{3}}. We are sorry. The full amount of {{4}} is being refunded {{5}}; you do not need to do anything.',
    parameters: [
      { meaning: 'what the payment was for', sample: '3-Day Analysis Session for Aarav Sharma' },
      { meaning: 'the booking or registration reference', sample: 'SSL-2026-0042' },
      { meaning: 'why the payment goes back', sample: 'your payment reached us after the seat hold had ended, and the time slot was booked by someone else meanwhile' },
      { meaning: 'the amount', sample: '₹15,000.00' },
      { meaning: 'how and when the refund arrives (the refund policy setting)', sample: 'to the original payment method within 5-7 working days' },
    ],
  },
  cancelled_refund_started: {
    title: 'Cancelled, refund started',
    body: 'Your {{1}} (reference {{2}}) has been cancelled, and {{3}} is being refunded {{4}}. We will tell you when the refund is complete; you do not need to do anything.',
    parameters: [
      { meaning: 'what was cancelled', sample: '3-Day Analysis Session for Aarav Sharma' },
      { meaning: 'the booking or registration reference', sample: 'SSL-2026-0042' },
      { meaning: 'the amount', sample: '₹15,000.00' },
      { meaning: 'how and when the refund arrives (the refund policy setting)', sample: 'to the original payment method within 5-7 working days' },
    ],
  },
  refund_completed: {
    title: 'Refund completed',
    body: 'Your refund of {{1}} for {{2}} (reference {{3}}) is complete: {{4}}. The details are in your e-mail.',
    parameters: [
      { meaning: 'the amount', sample: '₹15,000.00' },
      { meaning: 'what the payment was for', sample: '3-Day Analysis Session for Aarav Sharma' },
      { meaning: 'the booking or registration reference', sample: 'SSL-2026-0042' },
      { meaning: 'how the money came back', sample: 'our payment provider has paid it back, and depending on your bank it can take a few days to show in your account' },
    ],
  },
  waitlist_seat_offered: {
    title: 'Waitlist seat offered',
    body: 'A seat has freed up in {{1}}, and we are holding it for {{2}} until {{3}}. Pay {{4}} by then to confirm it here: {{5}} After that the seat goes to the next person on the waitlist.',
    parameters: [
      { meaning: 'the batch and camp, or the analysis day and its slot', sample: 'Morning batch of Summer Camp 2027' },
      { meaning: 'the swimmer', sample: 'Aarav Sharma' },
      { meaning: 'when the offer ends', sample: '3:45 PM IST on 8 April 2027' },
      { meaning: 'the amount', sample: '₹8,000.00' },
      { meaning: 'the link to pay for the seat', sample: 'https://swimlab.in/onboarding/offer?registration=CAMP-2027-0042&key=Xk2f9Qp1' },
    ],
  },
  camp_confirmed: {
    title: 'Camp registration confirmed',
    body: 'Camp registration confirmed and paid: {{1}} in {{2}}, {{3}}. Batch: {{4}}, every day. Registration reference {{5}}. The details, receipt and calendar file are in your e-mail.',
    parameters: [
      { meaning: 'the swimmers', sample: 'Aarav Sharma and Diya Sharma' },
      { meaning: 'the camp', sample: 'Summer Camp 2027' },
      { meaning: 'the camp dates', sample: '5–16 April 2027' },
      { meaning: 'the batch and its times', sample: 'Morning batch, 7:00 AM - 9:00 AM' },
      { meaning: 'the registration reference (of the first swimmer, for a family)', sample: 'CAMP-2027-0042' },
    ],
  },
  report_ready: {
    title: 'Analysis results ready',
    body: "Hello {{1}}, the results of {{2}}'s {{3}} (booking reference {{4}}) are ready. See them here: {{5}} We hope they help with the training.",
    parameters: [
      { meaning: 'the name of the person who booked', sample: 'Priya Sharma' },
      { meaning: "the swimmer's first name", sample: 'Aarav' },
      { meaning: 'the analysis, by its short name', sample: 'biomechanical analysis' },
      { meaning: 'the booking reference', sample: 'SSL-2026-0042' },
      { meaning: 'the link to the results', sample: 'https://swimlab.in/analyses/42' },
    ],
  },
  results_updated: {
    title: 'Analysis results updated',
    body: "Hello {{1}}, we have updated the results of {{2}}'s {{3}} (booking reference {{4}}). See them here: {{5}} The changes show there at once.",
    parameters: [
      { meaning: 'the name of the person who booked', sample: 'Priya Sharma' },
      { meaning: "the swimmer's first name", sample: 'Aarav' },
      { meaning: 'the analysis, by its short name', sample: 'biomechanical analysis' },
      { meaning: 'the booking reference', sample: 'SSL-2026-0042' },
      { meaning: 'the link to the results', sample: 'https://swimlab.in/analyses/42' },
    ],
  },
  next_analysis_due: {
    title: 'Next analysis due',
    body: "Hello {{1}}, it is time for {{2}}'s next swimming analysis, to see what the training since the last one on {{3}} has changed. Choose a date and time here: {{4}} We look forward to seeing you at the lab.",
    parameters: [
      { meaning: 'the name of the account holder', sample: 'Priya Sharma' },
      { meaning: 'the swimmer (first name)', sample: 'Aarav' },
      { meaning: 'the first day of the last analysis', sample: '7 June 2026' },
      { meaning: 'the link to book for the swimmer', sample: 'https://swimlab.in/book-slot?swimmer=42' },
    ],
  },
  analysis_day_in_city: {
    title: 'Analysis day in your city',
    body: 'The Swimming Sport Science Lab is coming to {{1}}: {{2}} at {{3}}, {{4}}, {{5}} a slot. See the slots and book here: {{6}} You get this because you asked on our website to hear when the lab comes to your city.',
    parameters: [
      { meaning: 'the city', sample: 'Pune' },
      { meaning: 'the service', sample: 'Competition Race Analysis' },
      { meaning: 'the venue', sample: 'Balewadi Aquatics' },
      { meaning: 'the dates', sample: 'Saturday, 5 December to Sunday, 6 December' },
      { meaning: 'the price of a slot', sample: '₹1,500.00' },
      { meaning: 'the link to the day', sample: 'https://swimlab.in/analysis-days/42' },
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

/** The footer WhatsApp shows under a template's body. */
export function footerOf(template: WhatsAppTemplate) {
  return template.category === 'Authentication' ? AUTHENTICATION_FOOTER : WHATSAPP_FOOTER
}

/** The text a person reads for a template with these parameters, footer included. */
export function renderTemplate(name: WhatsAppTemplateName, parameters: readonly string[]) {
  const template: WhatsAppTemplate = WHATSAPP_TEMPLATES[name]
  const body = template.body.replace(/\{\{(\d+)\}\}/g, (_, index: string) => parameters[Number(index) - 1] ?? '')
  return `${body}\n\n${footerOf(template)}`
}

/**
 * The README's list of the templates, as the lab submits them in WhatsApp Manager: one entry per
 * template with its category, language, body, footer (and an Authentication template's button) and
 * each parameter's sample. A test keeps the README's copy equal to this, so the list there is always
 * what the site sends.
 */
export function templatesForReadme() {
  const entries = Object.entries(WHATSAPP_TEMPLATES).map(([name, template]: [string, WhatsAppTemplate]) =>
    [
      `#### \`${name}\` (${template.title})`,
      '',
      `- Category: ${template.category ?? 'Utility'}; language: \`${WHATSAPP_TEMPLATE_LANGUAGE}\``,
      template.category === 'Authentication'
        ? `- Body: ${template.body} (Meta's wording: choose "Add security recommendation" and a code expiry of ${WHATSAPP_CODE_MINUTES} minutes)`
        : `- Body: ${template.body}`,
      `- Footer: ${footerOf(template)}`,
      ...(template.category === 'Authentication' ? [`- Button: ${AUTHENTICATION_BUTTON} (one-time password, copy code)`] : []),
      ...template.parameters.map((parameter, index) => `- \`{{${index + 1}}}\`: ${parameter.meaning}; sample: ${parameter.sample}`),
    ].join('\n'),
  )
  return entries.join('\n\n')
}

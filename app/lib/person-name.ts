// The one rule for a person's name, for the forms (in the browser too) and for names stored before it.
// Nothing server-only may be imported here.

/**
 * Whether text could be read (or made clickable by a mail program) as a link: a scheme, 'www.', an
 * e-mail address, or a dotted host such as 'pay-here.com' or 'x.co/pay'. Initials ('K.S.Rao',
 * 'K. S. Rao') are not: their dots follow a single letter or are followed by a space. Checked on
 * the text as it would be shown, without invisible characters and with full-width dots made plain.
 */
export function looksLikeLink(text: string) {
  const shown = text.normalize('NFKC').replace(/\p{Cf}/gu, '').replace(/[\u3002\uff61]/g, '.').toLowerCase()
  const label = '[\\p{L}\\p{M}\\p{N}_-]'
  return (
    /:\/\/|\b(?:https?|mailto):|www\.|@/.test(shown) ||
    new RegExp(`${label}{2}\\.${label}{2}`, 'u').test(shown) ||
    new RegExp(`${label}\\.${label}+\\/`, 'u').test(shown)
  )
}

/**
 * A name is letters and the marks that complete them (every script: 'ಶ್ರೀನಿವಾಸ', 'क्षितिज', 'Zoë'),
 * the joiners Indian scripts need (ZWNJ, ZWJ), spaces, dots, apostrophes (' and the ’ phones type)
 * and hyphens. No digit of any script: a name is put into the lab's e-mails and WhatsApp messages,
 * and "Pay Rs ५०० to ९८१२३४५६७८" must not arrive there as someone's name.
 */
const NAME_CHARACTERS = /^[\p{L}\p{M}\u200c\u200d .'\u2019-]+$/u

/** Whether text is a name by the one rule every form's name field applies (also to check names stored before it). */
export function isPersonName(text: string) {
  return NAME_CHARACTERS.test(text) && !looksLikeLink(text)
}


/** "Kiran" of "Kiran Rao": how a message or a page names a person when the whole name is more than needed. */
export function firstNameOf(name: string) {
  return name.trim().split(/\s+/)[0] || name
}

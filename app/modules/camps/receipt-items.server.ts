import { eq } from 'drizzle-orm'
import type { Executor } from '~/db/client.server'
import { campRegistrations, users } from '~/db/schema'
import { formatLongDate } from '~/lib/lab-time'
import { discountLines, promoCodeLabel, type ReceiptItem } from '~/modules/receipts/receipt-items.server'
import { batchTimes, registrationDetails } from './fulfilment.server'
import { groupMembers } from './groups.server'

/** A camp registration as a receipt's (or credit note's) line, with its customer and who may see it; `promoCode` names its promo discount. */
export async function campReceiptItem(executor: Executor, registrationId: number, promoCode: string | null = null): Promise<ReceiptItem> {
  const r = await registrationDetails(executor, registrationId)
  const [discounts] = await executor
    .select({ sibling: campRegistrations.siblingDiscountPaise, promo: campRegistrations.promoDiscountPaise, accountId: campRegistrations.accountId })
    .from(campRegistrations)
    .where(eq(campRegistrations.id, registrationId))
  // Billed to who paid, as sessions are: the account that registered its swimmers, or the guest by
  // the address they gave (the form's name is the swimmer's, each line names them).
  const [account] = discounts!.accountId !== null ? await executor.select({ name: users.name, email: users.email, phone: users.phone }).from(users).where(eq(users.id, discounts!.accountId)) : []
  return {
    owner: { userId: null, email: r.email },
    customer: account ? { name: account.name, email: account.email, phone: account.phone ?? r.phone } : { name: null, email: r.email, phone: r.phone },
    description: `${r.campName} swimming camp`,
    detail: [
      `Swimmer: ${r.swimmerName}`,
      `${formatLongDate(r.startsOn)} to ${formatLongDate(r.endsOn)}, ${r.venue}`,
      `${r.batchName}: ${batchTimes(r.timeRanges)}`,
      `Registration ID: ${r.reference}`,
    ],
    discounts: discountLines([
      ['Sibling price', discounts!.sibling],
      [promoCodeLabel(promoCode), discounts!.promo],
    ]),
  }
}

/** A line for each swimmer of a group paid for at once; null when the registration leads no group. */
export async function campGroupReceiptLines(executor: Executor, leadId: number, promoCode: string | null = null) {
  const members = await groupMembers(executor, leadId)
  if (members.length === 0) return null
  return Promise.all(
    members.map(async (member) => {
      const { description, detail, discounts } = await campReceiptItem(executor, member.id, promoCode)
      return { description, detail, amountPaise: member.amountPaise, discounts }
    }),
  )
}

// Staff forms about money: their rules and messages, used by the server action and, in the
// browser, for validation as you type. Nothing server-only may be imported here.
import { z } from 'zod'

/** Said when staff try to settle a refund that is not (or no longer) a failed one: settled from another tab, say. */
export const REFUND_NOT_WAITING = 'This refund is no longer waiting to be repaid by hand.'

/** A refund the gateway failed, repaid by staff themselves: how they did it goes on record. */
export const SettleRefundSchema = z.object({
  refundId: z.string().min(1).max(100),
  how: z.string({ error: 'Say how the customer was repaid' }).trim().min(3, 'Say how the customer was repaid').max(200, 'Keep it to 200 characters'),
})

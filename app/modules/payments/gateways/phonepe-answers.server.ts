import type { GatewayOrderState, GatewayRefundState } from '../gateway-contract.server'
import type { PhonePeLogger } from './phonepe-api.server'

/**
 * Reading what PhonePe sends (answers and webhooks alike): its states in ours, the payment attempt
 * that explains an order, and fields that may be missing or of another type.
 */

export const ORDER_STATES: Record<string, Exclude<GatewayOrderState, 'not_found'> | undefined> = {
  CREATED: 'pending',
  PENDING: 'pending',
  COMPLETED: 'completed',
  FAILED: 'failed',
}

export const REFUND_STATES: Record<string, GatewayRefundState | undefined> = {
  PENDING: 'pending',
  ACCEPTED: 'pending',
  CONFIRMED: 'pending',
  COMPLETED: 'completed',
  FAILED: 'failed',
}

export function orderState(phonePeState: string, orderId: string, logger: PhonePeLogger): Exclude<GatewayOrderState, 'not_found'> {
  const state = ORDER_STATES[phonePeState]
  if (state) return state
  // An unknown state must never confirm anything: keep asking until it becomes one we know.
  logger.warn({ gateway: 'phonepe', merchantOrderId: orderId, phonePeState }, 'PhonePe reported an unknown order state')
  return 'pending'
}

export function refundState(phonePeState: string | null, refundId: string, logger: PhonePeLogger): GatewayRefundState {
  const state = phonePeState ? REFUND_STATES[phonePeState] : undefined
  if (state) return state
  logger.warn({ gateway: 'phonepe', merchantRefundId: refundId, phonePeState }, 'PhonePe reported an unknown refund state')
  return 'pending'
}

/**
 * The payment attempt that explains the order's state: the latest completed one for a completed
 * order, otherwise the latest one.
 */
export function latestAttempt(paymentDetails: unknown, state: Exclude<GatewayOrderState, 'not_found'>) {
  if (!Array.isArray(paymentDetails)) return null
  const attempts = paymentDetails
    .filter(isRecord)
    .map((attempt, index) => ({ attempt, index, at: integer(attempt, 'timestamp') ?? 0 }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map(({ attempt }) => attempt)
  const completed = attempts.filter((attempt) => text(attempt, 'state') === 'COMPLETED')
  return (state === 'completed' && completed.length > 0 ? completed : attempts).at(-1) ?? null
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return null
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function text(record: Record<string, unknown>, key: string) {
  const value = record[key]
  return typeof value === 'string' && value !== '' ? value : null
}

/** Amounts and timestamps arrive as numbers, sometimes as numeric strings. */
export function integer(record: Record<string, unknown>, key: string) {
  const value = record[key]
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : null
}

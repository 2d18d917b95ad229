import type { GatewayRefundStatus, RefundInput } from '../gateway-contract.server'
import { integer, isRecord, refundState, text } from './phonepe-answers.server'
import { failure, isSuccess, requireAmount, requireId, type PhonePeApi } from './phonepe-api.server'

/** Refunding a completed order, and asking for a refund's status. */
export function phonePeRefunds({ send, logger }: PhonePeApi) {
  function refundStatusFrom(body: Record<string, unknown>, refundId: string): GatewayRefundStatus {
    return {
      state: refundState(text(body, 'state'), refundId, logger),
      gatewayRefundId: text(body, 'refundId'),
      amountPaise: integer(body, 'amount'),
      raw: body,
    }
  }

  async function getRefundStatus(refundId: string): Promise<GatewayRefundStatus> {
    requireId('refund id', refundId)
    const answer = await send({
      name: 'refund status',
      method: 'GET',
      path: `/payments/v2/refund/${encodeURIComponent(refundId)}/status`,
      attempts: 3,
      ids: { merchantRefundId: refundId },
    })
    if (!isSuccess(answer.status) || !isRecord(answer.body)) throw failure('refund status', answer)
    return refundStatusFrom(answer.body, refundId)
  }

  async function refund(input: RefundInput): Promise<GatewayRefundStatus> {
    requireId('order id', input.orderId)
    requireId('refund id', input.refundId)
    requireAmount('refund', input.amountPaise)
    const answer = await send({
      name: 'refund',
      method: 'POST',
      path: '/payments/v2/refund',
      json: { merchantRefundId: input.refundId, originalMerchantOrderId: input.orderId, amount: input.amountPaise },
      // Safe to repeat: PhonePe refuses a second refund under the same merchantRefundId.
      attempts: 3,
      ids: { merchantOrderId: input.orderId, merchantRefundId: input.refundId },
    })
    if (isSuccess(answer.status) && isRecord(answer.body)) return refundStatusFrom(answer.body, input.refundId)
    if (answer.afterUncertainAttempt && answer.status >= 400 && answer.status < 500) {
      // The lost attempt may have created the refund, and this one was refused as a duplicate.
      logger.warn(
        { gateway: 'phonepe', merchantRefundId: input.refundId, status: answer.status },
        'PhonePe refused a repeated refund request; asking for the refund status',
      )
      try {
        return await getRefundStatus(input.refundId)
      } catch {
        throw failure('refund', answer)
      }
    }
    throw failure('refund', answer)
  }

  return { refund, getRefundStatus }
}

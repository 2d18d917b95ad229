import { secondsBetween } from '~/lib/lab-time'
import { GatewayError, type CreatePaymentInput, type CreatePaymentResult, type GatewayOrderStatus } from '../gateway-contract.server'
import { integer, isRecord, latestAttempt, orderState, text } from './phonepe-answers.server'
import { failure, isSuccess, requireAmount, requireId, type Answer, type PhonePeApi } from './phonepe-api.server'

/** Standard Checkout accepts an order expiry of 300 to 3600 seconds. */
const EXPIRE_AFTER_SECONDS = { min: 300, max: 3600 } as const
/** udf1 to udf10 take up to 256 characters each; we use the first five. */
const UDF_SLOTS = 5
const UDF_MAX_LENGTH = 256
const MESSAGE_MAX_LENGTH = 256
/** Answers PhonePe gives for an order id it has no record of. */
const NOT_FOUND_CODES = new Set(['INVALID_MERCHANT_ORDER_ID', 'ORDER_NOT_FOUND', 'NOT_FOUND'])

/** Creating a Standard Checkout order, and asking for its status. */
export function phonePeOrders({ send, logger }: PhonePeApi, checkoutOrigins: string[]) {
  async function getStatus(orderId: string): Promise<GatewayOrderStatus> {
    requireId('order id', orderId)
    const answer = await send({
      name: 'order status',
      method: 'GET',
      path: `/checkout/v2/order/${encodeURIComponent(orderId)}/status`,
      attempts: 3,
      ids: { merchantOrderId: orderId },
    })
    if (isNotFound(answer)) {
      return { state: 'not_found', amountPaise: null, transactionId: null, paymentMode: null, raw: answer.body }
    }
    if (!isSuccess(answer.status) || !isRecord(answer.body)) throw failure('order status', answer)
    const body = answer.body
    const phonePeState = text(body, 'state')
    if (!phonePeState) throw new GatewayError('PhonePe order status answer had no state', true, answer.status)
    const state = orderState(phonePeState, orderId, logger)
    const attempt = latestAttempt(body.paymentDetails, state)
    return {
      state,
      amountPaise: integer(body, 'amount'),
      transactionId: attempt ? text(attempt, 'transactionId') : null,
      paymentMode: attempt ? text(attempt, 'paymentMode') : null,
      raw: body,
    }
  }

  async function createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult> {
    requireId('order id', input.orderId)
    requireAmount('pay', input.amountPaise)
    const secondsLeft = Math.floor(secondsBetween(Date.now(), input.expiresAt))
    const expireAfter = Math.min(EXPIRE_AFTER_SECONDS.max, Math.max(EXPIRE_AFTER_SECONDS.min, secondsLeft))
    if (expireAfter !== secondsLeft) {
      logger.warn(
        { gateway: 'phonepe', merchantOrderId: input.orderId, secondsLeft, expireAfter },
        'PhonePe order expiry moved into the range PhonePe accepts',
      )
    }
    const metaInfo = metaInfoFrom(input.meta)
    const answer = await send({
      name: 'pay',
      method: 'POST',
      path: '/checkout/v2/pay',
      json: {
        merchantOrderId: input.orderId,
        amount: input.amountPaise,
        expireAfter,
        ...(metaInfo ? { metaInfo } : {}),
        paymentFlow: {
          type: 'PG_CHECKOUT',
          message: input.description.slice(0, MESSAGE_MAX_LENGTH),
          merchantUrls: { redirectUrl: input.redirectUrl },
        },
      },
      // Creation is retried only with this same order id: PhonePe refuses a second order under it.
      attempts: 2,
      ids: { merchantOrderId: input.orderId },
    })

    if (answer.status === 417) {
      if (!answer.afterUncertainAttempt) {
        throw new GatewayError(`PhonePe pay refused order ${input.orderId}: HTTP 417, the order id was already used`, false, 417)
      }
      return recoverLostCreation(input)
    }
    if (!isSuccess(answer.status) || !isRecord(answer.body)) throw failure('pay', answer)
    const redirectUrl = text(answer.body, 'redirectUrl')
    if (!redirectUrl) throw new GatewayError('PhonePe pay answer had no redirectUrl', true, answer.status)
    if (!checkoutOrigins.includes(originOf(redirectUrl))) {
      logger.warn(
        { gateway: 'phonepe', merchantOrderId: input.orderId, checkoutOrigin: originOf(redirectUrl) },
        'PhonePe checkout page is on an origin outside checkoutOrigins; the CSP form-action may block it',
      )
    }
    return { redirectUrl, gatewayOrderId: text(answer.body, 'orderId') }
  }

  /**
   * A creation attempt timed out (or broke) and the retry under the same order id got 417, so the
   * first attempt did create the order. PhonePe's status answer does not carry the checkout URL,
   * and no other call returns it again, so the customer cannot be sent to that order: we say so
   * with a non-retryable error, and the caller starts over with a fresh order id. The orphaned
   * order stays unpaid at PhonePe and expires on its own.
   */
  async function recoverLostCreation(input: CreatePaymentInput): Promise<never> {
    const status = await getStatus(input.orderId)
    logger.warn(
      { gateway: 'phonepe', merchantOrderId: input.orderId, state: status.state, amountPaise: status.amountPaise },
      'PhonePe created the order on an attempt whose answer was lost; its checkout URL cannot be recovered',
    )
    if (status.state === 'not_found') {
      throw new GatewayError(`PhonePe pay refused order ${input.orderId} as already used, yet has no record of it; start a new order id`, false, 417)
    }
    throw new GatewayError(
      `PhonePe pay: order ${input.orderId} was created by an attempt whose answer was lost; its checkout URL cannot be recovered, start a new order id`,
      false,
      417,
    )
  }

  return { createPayment, getStatus }
}

/** The first five entries of meta as udf1…udf5 (`key=value`), each cut to PhonePe's limit. */
function metaInfoFrom(meta: Record<string, string>) {
  const entries = Object.entries(meta).slice(0, UDF_SLOTS)
  if (entries.length === 0) return null
  return Object.fromEntries(entries.map(([key, value], index) => [`udf${index + 1}`, `${key}=${String(value)}`.slice(0, UDF_MAX_LENGTH)]))
}

/**
 * PhonePe's own "no such order" answer. A 404 without a JSON body is more likely a wrong base URL
 * than an unknown order, and treating it as `not_found` could abandon a paid order.
 */
function isNotFound(answer: Answer) {
  if (!isRecord(answer.body)) return false
  if (answer.status === 404) return true
  const code = text(answer.body, 'code') ?? text(answer.body, 'errorCode')
  return answer.status === 400 && code !== null && NOT_FOUND_CODES.has(code)
}

function originOf(url: string) {
  try {
    return new URL(url).origin
  } catch {
    return ''
  }
}

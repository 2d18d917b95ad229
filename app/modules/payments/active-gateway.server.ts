import type { PaymentGateway } from './gateway-contract.server'

let current: PaymentGateway | undefined

/** The gateway this installation takes payments through (PAYMENT_GATEWAY), set up at start-up. */
export function paymentGateway(): PaymentGateway {
  if (!current) throw new Error('The payment gateway has not been set up yet')
  return current
}

export function usePaymentGateway(gateway: PaymentGateway | undefined) {
  current = gateway
}

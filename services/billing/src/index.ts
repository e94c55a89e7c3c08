export { refundIdempotencyKey, refundReceipt } from './app/refunds';
export { bootBilling } from './boot';
export type { PaymentProvider } from './infra/payment-provider';
export { createRazorpayProvider } from './infra/razorpay-provider';
export { createSimulatedRazorpay, type SimulatedRazorpay } from './infra/simulated-razorpay';
export { type BillingService, type BillingServiceDeps, createBillingService } from './service';

import {
  type Config,
  ConfigError,
  type DocumentStore,
  type Logger,
  loadOrCreateSecret,
  randomToken,
} from '@nudge/platform';
import { type PaymentProvider, ProviderError } from './payment-provider';
import { createRazorpayProvider } from './razorpay-provider';
import {
  createSimulatedRazorpay,
  SIMULATED_KEY_ID,
  SIMULATED_PLAN_ID,
  type SimulatedRazorpay,
} from './simulated-razorpay';

export interface Payments {
  provider: PaymentProvider;
  simulated?: SimulatedRazorpay;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  planId: string;
}

/**
 * Razorpay when RAZORPAY_KEY_ID is set (then the key secret, webhook secret and plan id are required). Without it,
 * outside production, the simulated Razorpay with secrets generated once under DATA_DIR. Production without keys
 * gets no payments at all (checkout answers 503, no webhook verifies): a simulated checkout there would hand out
 * premium for free, and refusing to start would take the rest of the product down with it.
 */
export async function openPayments(config: Config, store: DocumentStore, log: Logger): Promise<Payments> {
  if (config.RAZORPAY_KEY_ID) {
    const missing = (['RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET', 'RAZORPAY_PLAN_ID'] as const).filter(
      (key) => !config[key],
    );
    if (missing.length) throw new ConfigError(missing.map((key) => `${key}: required with RAZORPAY_KEY_ID`));
    return {
      provider: createRazorpayProvider({
        keyId: config.RAZORPAY_KEY_ID,
        keySecret: config.RAZORPAY_KEY_SECRET!,
        ...(config.RAZORPAY_API_URL ? { apiUrl: config.RAZORPAY_API_URL } : {}),
      }),
      keyId: config.RAZORPAY_KEY_ID,
      keySecret: config.RAZORPAY_KEY_SECRET!,
      webhookSecret: config.RAZORPAY_WEBHOOK_SECRET!,
      planId: config.RAZORPAY_PLAN_ID!,
    };
  }
  if (config.NODE_ENV === 'production') {
    log.error('RAZORPAY_KEY_ID is not set in production: payments are switched off until it is');
    return {
      provider: unconfiguredProvider(),
      keyId: '',
      keySecret: randomToken(32),
      webhookSecret: config.RAZORPAY_WEBHOOK_SECRET ?? randomToken(32),
      planId: '',
    };
  }
  log.warn('RAZORPAY_KEY_ID is not set: payments use the simulated checkout (no money moves)');
  const simulated = createSimulatedRazorpay({ store });
  return {
    provider: simulated,
    simulated,
    keyId: SIMULATED_KEY_ID,
    keySecret: await loadOrCreateSecret(config.DATA_DIR, 'razorpay-simulated-key-secret'),
    webhookSecret:
      config.RAZORPAY_WEBHOOK_SECRET ??
      (await loadOrCreateSecret(config.DATA_DIR, 'razorpay-simulated-webhook-secret')),
    planId: SIMULATED_PLAN_ID,
  };
}

/** Production without Razorpay keys: every call fails; checkout tells the reader payments are not available. */
export function unconfiguredProvider(): PaymentProvider {
  const refuse = async (): Promise<never> => {
    throw new ProviderError('Payments are not configured on this server', 503);
  };
  return {
    kind: 'unconfigured',
    createSubscription: refuse,
    fetchSubscription: refuse,
    cancelSubscription: refuse,
    pauseSubscription: refuse,
    resumeSubscription: refuse,
    refundPayment: refuse,
    fetchRefunds: refuse,
  };
}

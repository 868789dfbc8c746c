/**
 * The split-payment provider that persists a payout route when a pharmacy order completes. The
 * default provider books nothing and returns no route id; a real one is plugged in here.
 */
export type PayoutRouteRequest = { payoutId: string; receiverPharmacyId: string; amount: number; currency: string; componentType: string };

export interface PaymentProvider {
  createRoute(request: PayoutRouteRequest): Promise<string | null>;
}

export const noPaymentProvider: PaymentProvider = {
  createRoute: async () => null,
};

let current: PaymentProvider = noPaymentProvider;

export function paymentProvider(): PaymentProvider {
  return current;
}

/** Replaces the provider (wiring at start-up, tests). */
export function usePaymentProvider(provider: PaymentProvider): void {
  current = provider;
}

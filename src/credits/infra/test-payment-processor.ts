import { idFromSeed } from '../../kernel/ids';
import type { PaymentProcessor, PaymentRequest } from '../domain/payment-processor';

/** The built-in processor: no money moves; every top-up succeeds `settleDelayMs` after it is requested. */
export class TestPaymentProcessor implements PaymentProcessor {
  readonly name = 'test';

  constructor(readonly settlesAfterMs: number) {}

  createIntent(request: PaymentRequest): Promise<{ intentId: string }> {
    return Promise.resolve({ intentId: idFromSeed('pi_test', request.topupId) });
  }
}

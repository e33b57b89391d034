/** Given/when/then on the credits ledger (pure). */
import { DeciderSpecification } from '../../../test/support/decider-specification';
import { fold } from '../../kernel/decider';
import {
  LedgerCommand,
  ledgerDecider,
  LedgerEvent,
  LedgerState,
  ledgerStream,
  type ProcessorReport,
} from './ledger.decider';

const spec = DeciderSpecification.for(ledgerDecider);
const AT = '2026-03-02T19:00:00.000Z';

const granted = (amount: number, balance: number): LedgerEvent => ({
  type: 'credits.granted',
  data: { amount_cents: amount, balance_cents: balance },
});
const debited = (session: string, amount: number, balance: number): LedgerEvent => ({
  type: 'credits.debited',
  data: { session_id: session, amount_cents: amount, duration_seconds: 45, balance_cents: balance },
});
const threshold = (cents: number): LedgerEvent => ({
  type: 'credits.threshold_changed',
  data: { threshold_cents: cents },
});
const low = (balance: number, t: number): LedgerEvent => ({
  type: 'credits.low_balance',
  data: { balance_cents: balance, threshold_cents: t, currency: 'USD' },
});
const depleted = (balance: number): LedgerEvent => ({
  type: 'credits.depleted',
  data: { balance_cents: balance, depleted_at: AT, currency: 'USD' },
});
const requested = (id: string, amount: number): LedgerEvent => ({
  type: 'credits.topup_requested',
  data: { topup_id: id, amount_cents: amount, processor_payment_intent_id: `pi_${id}` },
});
const debit = (session: string, amount: number): LedgerCommand => ({
  type: 'debit',
  sessionId: session,
  amountCents: amount,
  durationSeconds: 45,
  at: AT,
});

describe('credits ledger', () => {
  it('names one stream per tenant and starts at 0 with a threshold of 0', () => {
    expect(ledgerStream('ten_1')).toBe('credits-ten_1');
    const state = ledgerDecider.initialState();
    expect([state.balanceCents, state.thresholdCents, state.depleted]).toEqual([0, 0, false]);
  });

  it('a grant adds to the balance; a negative grant is an adjustment; zero or a fraction is refused', () => {
    spec
      .given([])
      .when({ type: 'grant', amountCents: 1000, at: AT })
      .then([granted(1000, 1000)]);
    spec
      .given([granted(1000, 1000)])
      .when({ type: 'grant', amountCents: -300, at: AT })
      .then([granted(-300, 700)]);
    for (const amountCents of [0, 1.5, Number.NaN, 1e12])
      spec
        .given([])
        .when({ type: 'grant', amountCents, at: AT })
        .thenThrows({ code: 'invalid_request', param: 'amount_cents' });
  });

  it('debits a session once, whoever asks again', () => {
    spec
      .given([granted(1000, 1000)])
      .when(debit('ses_1', 10))
      .then([debited('ses_1', 10, 990)]);
    spec
      .given([granted(1000, 1000), debited('ses_1', 10, 990)])
      .when(debit('ses_1', 10))
      .thenNothingHappened();
    spec
      .given([granted(1000, 1000)])
      .when(debit('ses_2', 0))
      .thenNothingHappened();
  });

  it('warns once per drop below the threshold, and again after it is back above and drops again', () => {
    const armed = [granted(1000, 1000), threshold(500)];
    spec
      .given(armed)
      .when(debit('ses_1', 600))
      .then([debited('ses_1', 600, 400), low(400, 500)]);
    const warned = [...armed, debited('ses_1', 600, 400), low(400, 500)];
    spec
      .given(warned)
      .when(debit('ses_2', 100))
      .then([debited('ses_2', 100, 300)]);
    const toppedUp = [...warned, requested('top_1', 1000)];
    spec
      .given(toppedUp)
      .when({ type: 'settle_topup', topupId: 'top_1', at: AT })
      .then([
        { type: 'credits.topup_settled', data: { topup_id: 'top_1', amount_cents: 1000, balance_cents: 1400 } },
        {
          type: 'credits.topup_succeeded',
          data: {
            amount_cents: 1000,
            new_balance_cents: 1400,
            currency: 'USD',
            processor_payment_intent_id: 'pi_top_1',
          },
        },
      ]);
    const rearmed = [
      ...toppedUp,
      { type: 'credits.topup_settled', data: { topup_id: 'top_1', amount_cents: 1000, balance_cents: 1400 } },
    ] as LedgerEvent[];
    spec
      .given(rearmed)
      .when(debit('ses_3', 1000))
      .then([debited('ses_3', 1000, 400), low(400, 500)]);
  });

  it('a threshold raised above the balance warns; one unchanged decides nothing; a negative one is refused', () => {
    spec
      .given([granted(300, 300)])
      .when({ type: 'set_threshold', thresholdCents: 500 })
      .then([threshold(500), low(300, 500)]);
    spec
      .given([granted(300, 300), threshold(500)])
      .when({ type: 'set_threshold', thresholdCents: 500 })
      .thenNothingHappened();
    spec
      .given([granted(900, 900)])
      .when({ type: 'set_threshold', thresholdCents: 500 })
      .then([threshold(500)]);
    spec
      .given([])
      .when({ type: 'set_threshold', thresholdCents: -1 })
      .thenThrows({ code: 'invalid_request', param: 'threshold_cents' });
  });

  it('depleted once when the balance reaches zero or below; replenished when a top-up takes it above zero', () => {
    spec
      .given([granted(20, 20)])
      .when(debit('ses_1', 20))
      .then([debited('ses_1', 20, 0), depleted(0)]);
    const out = [granted(20, 20), debited('ses_1', 20, 0), depleted(0)];
    spec
      .given(out)
      .when(debit('ses_2', 10))
      .then([debited('ses_2', 10, -10)]);
    spec
      .given([...out, requested('top_1', 500)])
      .when({ type: 'settle_topup', topupId: 'top_1', at: AT })
      .then([
        { type: 'credits.topup_settled', data: { topup_id: 'top_1', amount_cents: 500, balance_cents: 500 } },
        {
          type: 'credits.topup_succeeded',
          data: { amount_cents: 500, new_balance_cents: 500, currency: 'USD', processor_payment_intent_id: 'pi_top_1' },
        },
        { type: 'credits.replenished', data: { balance_cents: 500 } },
      ]);
  });

  it('a top-up is requested once per id, settles once, and a failed one adds nothing', () => {
    spec
      .given([])
      .when({ type: 'request_topup', topupId: 'top_1', amountCents: 500, intentId: 'pi_top_1' })
      .then([requested('top_1', 500)]);
    spec
      .given([requested('top_1', 500)])
      .when({ type: 'request_topup', topupId: 'top_1', amountCents: 500, intentId: 'pi_top_1' })
      .thenNothingHappened();
    spec
      .given([])
      .when({ type: 'request_topup', topupId: 'top_1', amountCents: 0, intentId: 'x' })
      .thenThrows('invalid_request');
    spec.given([]).when({ type: 'settle_topup', topupId: 'top_9', at: AT }).thenThrows('not_found');
    const failed: LedgerEvent = { type: 'credits.topup_failed', data: { topup_id: 'top_1', reason: 'card_declined' } };
    spec
      .given([requested('top_1', 500)])
      .when({ type: 'fail_topup', topupId: 'top_1', reason: 'card_declined' })
      .then([failed]);
    spec
      .given([requested('top_1', 500), failed])
      .when({ type: 'settle_topup', topupId: 'top_1', at: AT })
      .thenNothingHappened();
    const state: LedgerState = fold(ledgerDecider, [requested('top_1', 500), failed]);
    expect([state.balanceCents, state.topups.get('top_1')?.status]).toEqual([0, 'failed']);
  });

  describe("a payment processor's report (Stripe's webhook)", () => {
    const paid = (eventId: string, over: Partial<ProcessorReport> = {}): ProcessorReport => ({
      eventId,
      intentId: 'pi_top_1',
      amountCents: 500,
      currency: 'USD',
      ...over,
    });
    const settled = (eventId: string, balance = 500): LedgerEvent[] => [
      {
        type: 'credits.topup_settled',
        data: { topup_id: 'top_1', amount_cents: 500, balance_cents: balance, processor_event_id: eventId },
      },
      {
        type: 'credits.topup_succeeded',
        data: {
          amount_cents: 500,
          new_balance_cents: balance,
          currency: 'USD',
          processor_payment_intent_id: 'pi_top_1',
        },
      },
    ];
    const failedBy = (eventId: string, reason: string): LedgerEvent => ({
      type: 'credits.topup_failed',
      data: { topup_id: 'top_1', reason, processor_event_id: eventId },
    });

    it('settles the top-up once: the same event again, or another success, adds nothing', () => {
      spec
        .given([requested('top_1', 500)])
        .when({ type: 'settle_topup', topupId: 'top_1', at: AT, report: paid('evt_1') })
        .then(settled('evt_1'));
      spec
        .given([requested('top_1', 500), ...settled('evt_1')])
        .when({ type: 'settle_topup', topupId: 'top_1', at: AT, report: paid('evt_1') })
        .thenNothingHappened();
      spec
        .given([requested('top_1', 500), ...settled('evt_1')])
        .when({ type: 'settle_topup', topupId: 'top_1', at: AT, report: paid('evt_2') })
        .thenNothingHappened();
      const state = fold(ledgerDecider, [requested('top_1', 500), ...settled('evt_1')]);
      expect([state.balanceCents, state.processorEvents.has('evt_1')]).toEqual([500, true]);
    });

    it('a report of another payment than the one the top-up created, or of no top-up, is not found', () => {
      spec
        .given([requested('top_1', 500)])
        .when({ type: 'settle_topup', topupId: 'top_1', at: AT, report: paid('evt_1', { intentId: 'pi_other' }) })
        .thenThrows('not_found');
      spec
        .given([])
        .when({ type: 'settle_topup', topupId: 'top_1', at: AT, report: paid('evt_1') })
        .thenThrows('not_found');
      spec
        .given([requested('top_1', 500)])
        .when({ type: 'fail_topup', topupId: 'top_1', reason: 'x', report: paid('evt_1', { intentId: 'pi_other' }) })
        .thenThrows('not_found');
    });

    it('another amount or currency than asked credits nothing: the top-up fails', () => {
      spec
        .given([requested('top_1', 500)])
        .when({ type: 'settle_topup', topupId: 'top_1', at: AT, report: paid('evt_1', { amountCents: 50_000 }) })
        .then([failedBy('evt_1', 'amount_mismatch: paid 50000 USD, asked 500 USD')]);
      spec
        .given([requested('top_1', 500)])
        .when({ type: 'settle_topup', topupId: 'top_1', at: AT, report: paid('evt_1', { currency: 'JPY' }) })
        .then([failedBy('evt_1', 'amount_mismatch: paid 500 JPY, asked 500 USD')]);
    });

    it('a failure fails a pending top-up once; a success after a declined attempt still settles it', () => {
      spec
        .given([requested('top_1', 500)])
        .when({ type: 'fail_topup', topupId: 'top_1', reason: 'card_declined', report: paid('evt_1') })
        .then([failedBy('evt_1', 'card_declined')]);
      spec
        .given([requested('top_1', 500), failedBy('evt_1', 'card_declined')])
        .when({ type: 'fail_topup', topupId: 'top_1', reason: 'card_declined', report: paid('evt_2') })
        .thenNothingHappened();
      spec
        .given([requested('top_1', 500), ...settled('evt_2')])
        .when({ type: 'fail_topup', topupId: 'top_1', reason: 'card_declined', report: paid('evt_1') })
        .thenNothingHappened();
      spec
        .given([requested('top_1', 500), failedBy('evt_1', 'card_declined')])
        .when({ type: 'settle_topup', topupId: 'top_1', at: AT, report: paid('evt_2') })
        .then(settled('evt_2'));
    });
  });
});

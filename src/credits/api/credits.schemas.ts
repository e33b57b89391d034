/** The response schemas of the credits API (named ones become `components.schemas`). */
import { pageOf, shape } from '../../kernel/http/api-docs';

const cents = (description: string) => ({ type: 'integer', description });

export const BALANCE = shape('CreditBalance', {
  balance_cents: cents('The prepaid balance; production calls wait while it is depleted.'),
  threshold_cents: cents('Below it, `credits.low` is sent.'),
  currency: { type: 'string', const: 'USD' },
});

export const TOPUP = shape('Topup', {
  topup_id: { type: 'string', description: 'The top-up id (`top_…`).' },
  status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
  amount_cents: cents('The amount asked.'),
  currency: { type: 'string', const: 'USD' },
  processor_payment_intent_id: { type: 'string', description: 'The payment processor’s intent, to confirm it.' },
  failure_reason: { type: ['string', 'null'] },
  created_at: { type: 'string', format: 'date-time' },
  settled_at: { type: ['string', 'null'], format: 'date-time' },
});
export const TOPUP_PAGE = pageOf('TopupPage', TOPUP);

export const GRANT = shape('CreditGrant', {
  tenant_id: { type: 'string' },
  granted_cents: cents('The adjustment (negative takes credit away).'),
  balance_cents: cents('The balance after it.'),
});

export const BALANCE_EXAMPLE = { balance_cents: 5000, threshold_cents: 1000, currency: 'USD' };
export const TOPUP_EXAMPLE = {
  topup_id: 'top_01jf8w2c4v6b8n0m2q4w',
  status: 'pending',
  amount_cents: 2000,
  currency: 'USD',
  processor_payment_intent_id: 'pi_sim_01jf8w2c4v6b8n0m2q4w',
  failure_reason: null,
  created_at: '2026-11-21T10:00:00.000Z',
  settled_at: null,
};

/** The response schemas of the campaigns API (named ones become `components.schemas`). */
import { pageOf, shape } from '../../kernel/http/api-docs';
import { AGENT_CONFIG } from '../../sessions';

const str = (description?: string) => ({ type: 'string', ...(description ? { description } : {}) });
const nullable = (type: string, description?: string) => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const time = { type: 'string', format: 'date-time' };
const nullableTime = (description?: string) => ({ ...nullable('string', description), format: 'date-time' });
const count = { type: 'integer', minimum: 0 };

const SETTINGS = shape('CampaignSettings', {
  max_concurrency: { type: 'integer', minimum: 1, maximum: 100 },
  quiet_hours: shape('QuietHours', {
    start: str('Local time (HH:MM) the quiet window starts, in each contact’s zone.'),
    end: str('Local time (HH:MM) it ends; equal to start: no quiet hours.'),
  }),
  max_calls_per_number_per_day: { type: 'integer', minimum: 1, maximum: 100 },
  ends_at: nullableTime('Contacts still waiting then are skipped.'),
});

export const CAMPAIGN = shape('Campaign', {
  campaign_id: str('The campaign id (`cmp_…`).'),
  name: str(),
  channel: { type: 'string', const: 'phone_call' },
  session_type: { type: 'string', const: 'phone_call' },
  status: { type: 'string', enum: ['draft', 'running', 'paused', 'completed'] },
  pause_reason: { type: ['string', 'null'], enum: ['quiet_hours', 'manual', null], description: 'Why it is paused.' },
  next_open_at: nullableTime('While paused for quiet hours: when the next contact’s window opens.'),
  from_number: str('International format with a leading +.'),
  test_mode: { type: 'boolean' },
  agent_config: { oneOf: [AGENT_CONFIG, { type: 'null' }] },
  settings: SETTINGS,
  total_contacts: count,
  completed_sessions: count,
  failed_sessions: count,
  contacts: shape(
    'CampaignContactCounts',
    { pending: count, dispatched: count, completed: count, failed: count, skipped: count },
    'How many contacts are in each status.',
  ),
  created_at: time,
  started_at: nullableTime(),
  paused_at: nullableTime(),
  completed_at: nullableTime(),
});
export const CAMPAIGN_PAGE = pageOf('CampaignPage', CAMPAIGN);

export const CONTACT = shape('CampaignContact', {
  contact_id: str('The contact id (`con_…`).'),
  campaign_id: str(),
  phone_number: str(),
  email: nullable('string'),
  first_name: nullable('string'),
  last_name: nullable('string'),
  timezone: nullable('string', 'The IANA zone given for the contact, if any.'),
  zones: { type: 'array', items: { type: 'string' }, description: 'The zones its quiet hours are checked in.' },
  status: { type: 'string', enum: ['pending', 'dispatched', 'completed', 'failed', 'skipped'] },
  skip_reason: nullable('string', 'Why it was skipped (`dnc`, `invalid`, `duplicate`, `ended`…).'),
  session_id: nullable('string', 'The session of its call, once dispatched.'),
  dispatched_at: nullableTime(),
  finished_at: nullableTime(),
  duration_seconds: nullable('integer'),
  actual_cost_cents: nullable('integer'),
  created_at: time,
});
export const CONTACT_PAGE = pageOf('CampaignContactPage', CONTACT);

export const CAMPAIGN_EXAMPLE = {
  campaign_id: 'cmp_01jf8w2c4v6b8n0m2q4w',
  name: 'March recall',
  channel: 'phone_call',
  session_type: 'phone_call',
  status: 'draft',
  pause_reason: null,
  next_open_at: null,
  from_number: '+14155550000',
  test_mode: true,
  agent_config: { prompt: 'You are Ava, a friendly scheduling assistant for Northwind Dental.' },
  settings: {
    max_concurrency: 5,
    quiet_hours: { start: '21:00', end: '08:00' },
    max_calls_per_number_per_day: 3,
    ends_at: null,
  },
  total_contacts: 1,
  completed_sessions: 0,
  failed_sessions: 0,
  contacts: { pending: 1, dispatched: 0, completed: 0, failed: 0, skipped: 0 },
  created_at: '2026-11-21T10:00:00.000Z',
  started_at: null,
  paused_at: null,
  completed_at: null,
};

export const CONTACT_EXAMPLE = {
  contact_id: 'con_01jf8w2c4v6b8n0m2q4w',
  campaign_id: CAMPAIGN_EXAMPLE.campaign_id,
  phone_number: '+14155550100',
  email: null,
  first_name: 'Ada',
  last_name: null,
  timezone: null,
  zones: ['America/Los_Angeles'],
  status: 'pending',
  skip_reason: null,
  session_id: null,
  dispatched_at: null,
  finished_at: null,
  duration_seconds: null,
  actual_cost_cents: null,
  created_at: '2026-11-21T10:00:00.000Z',
};

/** The campaigns context's part of the event catalog: campaign.*. */
import { defineEvents } from '../catalog/event-fragment';
import { type FieldsOf, integer, nullable, object, oneOf, text, timestamp } from '../catalog/payload-schema';

const CONTACT_IDENTITY = 'Copied from the contact; null when the contact has none.';

export const SKIP_REASONS = [
  'invalid',
  'dnc_blocked',
  'daily_cap_reached',
  'quiet_hours_expired',
  'concurrency_full',
  'tenant_suspended',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export const CAMPAIGN_RESUME_REASONS = ['quiet_hours_ended', 'manual'] as const;
export type CampaignResumeReason = (typeof CAMPAIGN_RESUME_REASONS)[number];

export interface CampaignCreatedData {
  campaign_id: string;
  name: string;
  channel: string;
  session_type: string;
}

export interface CampaignStartedData {
  campaign_id: string;
  started_at: string;
}

export interface CampaignPausedData {
  campaign_id: string;
  paused_at: string;
  reason: string;
}

export interface CampaignPausedQuietHoursData {
  campaign_id: string;
  paused_at: string;
  next_open_at: string;
}

/** A quiet-hours pause ending by itself, or a manual resume (docs/campaigns.md, "Lifecycle"). */
export interface CampaignResumedData {
  campaign_id: string;
  resumed_at: string;
  reason: CampaignResumeReason;
}

export interface CampaignCompletedData {
  campaign_id: string;
  completed_at: string;
  total_contacts: number;
  completed_sessions: number;
  failed_sessions: number;
}

/** The contact identity every campaign.contact_* payload starts with. */
interface CampaignContactFields {
  contact_id: string;
  campaign_id: string;
  phone_number: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
}

export interface CampaignContactDispatchedData extends CampaignContactFields {
  delivery_row_id: string;
}

export interface CampaignContactCompletedData extends CampaignContactFields {
  session_id: string;
  duration_seconds: number;
  actual_cost_cents: number;
}

export type CampaignContactFailedData = CampaignContactCompletedData;

export interface CampaignContactSkippedData extends CampaignContactFields {
  skip_reason: SkipReason;
}

const campaignContact: FieldsOf<CampaignContactFields> = {
  contact_id: text(),
  campaign_id: text(),
  phone_number: text('As given for the contact; international format with a leading + unless skipped as invalid.'),
  email: nullable(text(CONTACT_IDENTITY)),
  first_name: nullable(text(CONTACT_IDENTITY)),
  last_name: nullable(text(CONTACT_IDENTITY)),
};

const campaignCreated = object<CampaignCreatedData>({
  campaign_id: text(),
  name: text(),
  channel: text('e.g. phone_call.'),
  session_type: text('e.g. phone_call.'),
});

const campaignStarted = object<CampaignStartedData>({
  campaign_id: text(),
  started_at: timestamp(),
});

const campaignPaused = object<CampaignPausedData>({
  campaign_id: text(),
  paused_at: timestamp(),
  reason: text('e.g. manual.'),
});

const campaignPausedQuietHours = object<CampaignPausedQuietHoursData>({
  campaign_id: text(),
  paused_at: timestamp(),
  next_open_at: timestamp('When the earliest remaining contact can be called again.'),
});

const campaignResumed = object<CampaignResumedData>({
  campaign_id: text(),
  resumed_at: timestamp(),
  reason: oneOf(CAMPAIGN_RESUME_REASONS),
});

const campaignCompleted = object<CampaignCompletedData>({
  campaign_id: text(),
  completed_at: timestamp(),
  total_contacts: integer(),
  completed_sessions: integer(),
  failed_sessions: integer(),
});

const campaignContactDispatched = object<CampaignContactDispatchedData>({
  ...campaignContact,
  delivery_row_id: text('The session id for phone campaigns.'),
});

const campaignContactOutcome = object<CampaignContactCompletedData>({
  ...campaignContact,
  session_id: text(),
  duration_seconds: integer(),
  actual_cost_cents: integer(),
});

const campaignContactSkipped = object<CampaignContactSkippedData>({
  ...campaignContact,
  skip_reason: oneOf(SKIP_REASONS),
});

export type CampaignPayloads = {
  'campaign.created': CampaignCreatedData;
  'campaign.started': CampaignStartedData;
  'campaign.paused': CampaignPausedData;
  'campaign.paused_quiet_hours': CampaignPausedQuietHoursData;
  'campaign.resumed': CampaignResumedData;
  'campaign.completed': CampaignCompletedData;
  'campaign.contact_dispatched': CampaignContactDispatchedData;
  'campaign.contact_completed': CampaignContactCompletedData;
  'campaign.contact_failed': CampaignContactFailedData;
  'campaign.contact_skipped': CampaignContactSkippedData;
};

// Example values shared with the other contexts' examples, so the documented events tell one consistent story.
const EX = {
  session: 'ses_01jf8z6q4m2x7c9v3b5n',
  campaign: 'cmp_01jf8yk2w9e5r1t7y3u6',
  contact: 'con_01jf8ymc5v2b8n4m6q0w',
  customer: '+14155550100',
} as const;

export const campaignEvents = defineEvents<CampaignPayloads>({
  groups: { campaign: 'Campaign events' },
  events: {
    'campaign.created': {
      description: 'A campaign was created; it is still a draft.',
      payload: campaignCreated,
      example: { campaign_id: EX.campaign, name: 'March recall', channel: 'phone_call', session_type: 'phone_call' },
    },
    'campaign.started': {
      description: 'The campaign moved from draft to running.',
      payload: campaignStarted,
      example: { campaign_id: EX.campaign, started_at: '2026-03-02T17:00:00.000Z' },
    },
    'campaign.paused': {
      description: 'The campaign was paused by hand; in-flight calls finish.',
      payload: campaignPaused,
      example: { campaign_id: EX.campaign, paused_at: '2026-03-02T18:30:00.000Z', reason: 'manual' },
    },
    'campaign.paused_quiet_hours': {
      description: 'The campaign paused itself: every remaining contact is inside its local quiet hours.',
      payload: campaignPausedQuietHours,
      example: {
        campaign_id: EX.campaign,
        paused_at: '2026-03-03T05:00:00.000Z',
        next_open_at: '2026-03-03T16:00:00.000Z',
      },
    },
    'campaign.resumed': {
      description: 'A paused campaign is running again: its quiet hours ended, or it was resumed by hand.',
      payload: campaignResumed,
      example: { campaign_id: EX.campaign, resumed_at: '2026-03-03T16:00:00.000Z', reason: 'quiet_hours_ended' },
    },
    'campaign.completed': {
      description: 'Every contact reached a terminal state.',
      payload: campaignCompleted,
      example: {
        campaign_id: EX.campaign,
        completed_at: '2026-03-03T19:12:44.501Z',
        total_contacts: 250,
        completed_sessions: 171,
        failed_sessions: 64,
      },
    },
    'campaign.contact_dispatched': {
      description: 'One contact was handed to the dispatcher and a session created.',
      payload: campaignContactDispatched,
      example: {
        contact_id: EX.contact,
        campaign_id: EX.campaign,
        phone_number: EX.customer,
        email: 'ada@example.com',
        first_name: 'Ada',
        last_name: 'Lovelace',
        delivery_row_id: EX.session,
      },
    },
    'campaign.contact_completed': {
      description: 'A contact reached terminal success.',
      payload: campaignContactOutcome,
      example: {
        contact_id: EX.contact,
        campaign_id: EX.campaign,
        phone_number: EX.customer,
        email: 'ada@example.com',
        first_name: 'Ada',
        last_name: 'Lovelace',
        session_id: EX.session,
        duration_seconds: 67,
        actual_cost_cents: 20,
      },
    },
    'campaign.contact_failed': {
      description:
        'A contact reached terminal failure; the underlying error is in the session.failed event of its session.',
      payload: campaignContactOutcome,
      example: {
        contact_id: 'con_01jf8ymd8c1x3z5v7b9n',
        campaign_id: EX.campaign,
        phone_number: '+14155550101',
        email: null,
        first_name: 'Grace',
        last_name: 'Hopper',
        session_id: 'ses_01jf8zc7d3f5g7h9j1k3',
        duration_seconds: 0,
        actual_cost_cents: 0,
      },
    },
    'campaign.contact_skipped': {
      description: 'A contact was skipped before dispatch and never had a session.',
      payload: campaignContactSkipped,
      example: {
        contact_id: 'con_01jf8ymf2m4n6b8v0c2x',
        campaign_id: EX.campaign,
        phone_number: '+14155550188',
        email: null,
        first_name: null,
        last_name: null,
        skip_reason: 'dnc_blocked',
      },
    },
  },
});

/**
 * A campaign's state and events: what its decider folds and decides, and what the pacing rules and
 * read models read. The decide rules are in campaign.decider.ts, the pacing round in pacing.ts.
 */
import type { DomainEvent } from '../../kernel/decider';
import { streamName } from '../../kernel/stream-name';
import type { AgentConfig } from '../../sessions';
import type {
  CampaignCompletedData,
  CampaignCreatedData,
  CampaignPausedData,
  CampaignPausedQuietHoursData,
  CampaignResumedData,
  CampaignStartedData,
} from '../campaigns.events';
import type { ContactBook } from './contact-book';
import type { ContactEvent, NewContact } from './contact';
import type { QuietHours } from './quiet-hours';

/** Most contacts one campaign holds (each request adds at most 1,000). */
export const MAX_CONTACTS_PER_CAMPAIGN = 10_000;

export interface CampaignSettings {
  max_concurrency: number;
  quiet_hours: QuietHours;
  max_calls_per_number_per_day: number;
  /** RFC 3339; null: no end. */
  ends_at: string | null;
}

export interface CampaignDefinition {
  campaign_id: string;
  name: string;
  from_number: string;
  test_mode: boolean;
  /** null: the campaign has no agent of its own; its calls use the platform's default prompt. */
  agent_config: AgentConfig | null;
  settings: CampaignSettings;
}

/** Internal events (not delivered): the definition, the contacts, the agent frozen at start, a pacing round. */
export type CampaignEvent =
  | DomainEvent<'campaign.defined', CampaignDefinition>
  | DomainEvent<'campaign.contacts_added', { contacts: NewContact[] }>
  | DomainEvent<'campaign.agent_frozen', { agent_config: AgentConfig | null }>
  | DomainEvent<'campaign.dispatch_round', { at: string }>
  | DomainEvent<'campaign.created', CampaignCreatedData>
  | DomainEvent<'campaign.started', CampaignStartedData>
  | DomainEvent<'campaign.paused', CampaignPausedData>
  | DomainEvent<'campaign.paused_quiet_hours', CampaignPausedQuietHoursData>
  | DomainEvent<'campaign.resumed', CampaignResumedData>
  | DomainEvent<'campaign.completed', CampaignCompletedData>
  | ContactEvent;

export const CAMPAIGN_EVENT_TYPES: readonly CampaignEvent['type'][] = [
  'campaign.defined',
  'campaign.contacts_added',
  'campaign.agent_frozen',
  'campaign.dispatch_round',
  'campaign.created',
  'campaign.started',
  'campaign.paused',
  'campaign.paused_quiet_hours',
  'campaign.resumed',
  'campaign.completed',
  'campaign.contact_dispatched',
  'campaign.contact_completed',
  'campaign.contact_failed',
  'campaign.contact_skipped',
];

/** `paused` is a manual pause; `paused_quiet_hours` resumes by itself (the API shows both as `paused`). */
export type CampaignStatus = 'draft' | 'running' | 'paused' | 'paused_quiet_hours' | 'completed';

export interface ContactCounts {
  readonly pending: number;
  readonly dispatched: number;
  readonly completed: number;
  readonly failed: number;
  readonly skipped: number;
}

export interface Campaign extends CampaignDefinition {
  readonly status: CampaignStatus;
  /** The agent its calls use, frozen when it started. */
  readonly frozenAgent: AgentConfig | null;
  /** In the order they were added. */
  readonly contacts: ContactBook;
  readonly counts: ContactCounts;
  readonly nextOpenAt: string | null;
  /** When the latest pacing round that dispatched ran (ms): the dispatch time of its contacts. */
  readonly roundAt: number | null;
}

export type CampaignState = { readonly status: 'none' } | Campaign;

export const campaignStream = streamName('campaign');

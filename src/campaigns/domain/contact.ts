import type { DomainEvent } from '../../kernel/decider';
import { DomainError } from '../../kernel/result';
import type {
  CampaignContactCompletedData,
  CampaignContactDispatchedData,
  CampaignContactFailedData,
  CampaignContactSkippedData,
  SkipReason,
} from '../campaigns.events';

/**
 * One contact of a campaign, and its own small decider: pending → dispatched → completed or failed,
 * or pending → skipped. The campaign's stream holds its contacts (the campaign decider routes each
 * contact command here), so that a contact's dispatch and the campaign's line count are decided
 * together, on one expected version: a contact is dispatched at most once, and never past
 * `max_concurrency`.
 */
export type ContactStatus = 'pending' | 'dispatched' | 'completed' | 'failed' | 'skipped';

/** A contact as the campaign receives it, checked and enriched by the application (number, zones). */
export interface NewContact {
  contact_id: string;
  /** As given. */
  phone_number: string;
  /** E.164 when the number is valid; null: it is skipped as `invalid` when its turn comes. */
  e164: string | null;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  /** The IANA zone given with the contact, if any. */
  timezone: string | null;
  /** The zones its quiet hours are checked in: the given zone, else those of its number (docs/campaigns.md). */
  zones: string[];
}

export interface Contact extends NewContact {
  readonly campaignId: string;
  readonly status: ContactStatus;
  readonly sessionId: string | null;
  /** When it was dispatched (ms since epoch): counts towards its number's daily cap. */
  readonly dispatchedAt: number | null;
}

export type ContactEvent =
  | DomainEvent<'campaign.contact_dispatched', CampaignContactDispatchedData>
  | DomainEvent<'campaign.contact_completed', CampaignContactCompletedData>
  | DomainEvent<'campaign.contact_failed', CampaignContactFailedData>
  | DomainEvent<'campaign.contact_skipped', CampaignContactSkippedData>;

export type ContactCommand =
  | { type: 'dispatch'; sessionId: string }
  | { type: 'skip'; reason: SkipReason }
  | {
      type: 'finish';
      outcome: 'completed' | 'failed';
      sessionId: string;
      durationSeconds: number;
      costCents: number;
    };

export const CONTACT_EVENT_TYPES: readonly ContactEvent['type'][] = [
  'campaign.contact_dispatched',
  'campaign.contact_completed',
  'campaign.contact_failed',
  'campaign.contact_skipped',
];

export const isTerminalContact = (status: ContactStatus): boolean =>
  status === 'completed' || status === 'failed' || status === 'skipped';

export function newContact(campaignId: string, added: NewContact): Contact {
  return { ...added, campaignId, status: 'pending', sessionId: null, dispatchedAt: null };
}

/** The identity every campaign.contact_* payload starts with. */
function identity(contact: Contact) {
  return {
    contact_id: contact.contact_id,
    campaign_id: contact.campaignId,
    phone_number: contact.e164 ?? contact.phone_number,
    email: contact.email,
    first_name: contact.first_name,
    last_name: contact.last_name,
  };
}

/** Decides one contact command; a repeated finish of the same session is a no-op. */
export function decideContact(command: ContactCommand, contact: Contact): ContactEvent[] {
  switch (command.type) {
    case 'dispatch':
      if (contact.status !== 'pending')
        throw new DomainError('conflict', `Contact ${contact.contact_id} is ${contact.status}, not pending.`);
      return [
        {
          type: 'campaign.contact_dispatched',
          data: { ...identity(contact), delivery_row_id: command.sessionId },
        },
      ];
    case 'skip':
      if (contact.status !== 'pending')
        throw new DomainError('conflict', `Contact ${contact.contact_id} is ${contact.status}, not pending.`);
      return [{ type: 'campaign.contact_skipped', data: { ...identity(contact), skip_reason: command.reason } }];
    case 'finish': {
      // An outcome recorded again (a timer that ran twice) or of another session changes nothing.
      if (contact.status !== 'dispatched' || contact.sessionId !== command.sessionId) return [];
      const data = {
        ...identity(contact),
        session_id: command.sessionId,
        duration_seconds: command.durationSeconds,
        actual_cost_cents: command.costCents,
      };
      return [
        command.outcome === 'completed'
          ? { type: 'campaign.contact_completed', data }
          : { type: 'campaign.contact_failed', data },
      ];
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** `roundAt`: when the pacing round that dispatched it ran (its `campaign.dispatch_round`). */
export function evolveContact(contact: Contact, event: ContactEvent, roundAt: number | null): Contact {
  switch (event.type) {
    case 'campaign.contact_dispatched':
      return { ...contact, status: 'dispatched', sessionId: event.data.delivery_row_id, dispatchedAt: roundAt };
    case 'campaign.contact_completed':
      return { ...contact, status: 'completed' };
    case 'campaign.contact_failed':
      return { ...contact, status: 'failed' };
    case 'campaign.contact_skipped':
      return { ...contact, status: 'skipped' };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** The campaign decider: create, contacts, start, pause, resume, a pacing round (pacing.ts) and a call outcome. */
import type { Decider } from '../../kernel/decider';
import { campaignEdge } from './campaign.edge';
import { DomainError, notFound } from '../../kernel/result';
import {
  Campaign,
  CampaignDefinition,
  CampaignEvent,
  CampaignState,
  ContactCounts,
  MAX_CONTACTS_PER_CAMPAIGN,
} from './campaign.state';
import { ContactBook } from './contact-book';
import { Contact, ContactCommand, decideContact, evolveContact, newContact, NewContact } from './contact';
import { pace, PaceFacts } from './pacing';

export * from './campaign.state';
export { campaignEdge } from './campaign.edge';

export type CampaignCommand =
  | { type: 'create'; definition: CampaignDefinition; contacts: NewContact[]; at: string; start: boolean }
  | { type: 'add_contacts'; contacts: NewContact[] }
  | { type: 'start'; at: string }
  | { type: 'pause'; at: string }
  | { type: 'resume'; at: string }
  | { type: 'pace'; at: string; facts: PaceFacts }
  | ({ type: 'record_outcome'; at: string } & Outcome)
  /** Several outcomes in one decision (the pacer gathers those that arrive while the stream is being written). */
  | { type: 'record_outcomes'; outcomes: Outcome[]; at: string };

/** A campaign call's outcome, for its contact. */
export interface Outcome {
  contactId: string;
  sessionId: string;
  outcome: 'completed' | 'failed';
  durationSeconds: number;
  costCents: number;
}

export const campaignDecider: Decider<CampaignCommand, CampaignState, CampaignEvent> = {
  edge: campaignEdge,
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
};

const NO_CONTACTS: ContactCounts = { pending: 0, dispatched: 0, completed: 0, failed: 0, skipped: 0 };

function evolve(state: CampaignState, event: CampaignEvent): CampaignState {
  if (event.type === 'campaign.defined') {
    return {
      ...event.data,
      status: 'draft',
      frozenAgent: null,
      contacts: ContactBook.EMPTY,
      counts: NO_CONTACTS,
      nextOpenAt: null,
      roundAt: null,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'campaign.created':
    case 'campaign.completed':
      return event.type === 'campaign.completed' ? { ...state, status: 'completed' } : state;
    case 'campaign.contacts_added': {
      const contacts = state.contacts.adding(event.data.contacts.map((added) => newContact(state.campaign_id, added)));
      return {
        ...state,
        contacts,
        counts: { ...state.counts, pending: state.counts.pending + event.data.contacts.length },
      };
    }
    case 'campaign.agent_frozen':
      return { ...state, frozenAgent: event.data.agent_config };
    case 'campaign.dispatch_round':
      return { ...state, roundAt: Date.parse(event.data.at) };
    case 'campaign.started':
      return { ...state, status: 'running' };
    case 'campaign.paused':
      return { ...state, status: 'paused' };
    case 'campaign.paused_quiet_hours':
      return { ...state, status: 'paused_quiet_hours', nextOpenAt: event.data.next_open_at };
    case 'campaign.resumed':
      return { ...state, status: 'running', nextOpenAt: null };
    case 'campaign.contact_dispatched':
    case 'campaign.contact_completed':
    case 'campaign.contact_failed':
    case 'campaign.contact_skipped': {
      const before = state.contacts.get(event.data.contact_id);
      if (!before) return state;
      const after = evolveContact(before, event, state.roundAt);
      return { ...state, contacts: state.contacts.with(after), counts: { ...recount(state.counts, before, after) } };
    }
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

function recount(counts: ContactCounts, before: Contact, after: Contact): ContactCounts {
  const next = { ...counts };
  next[before.status]--;
  next[after.status]++;
  return next;
}

function decide(command: CampaignCommand, state: CampaignState): CampaignEvent[] {
  if (command.type === 'create') return create(command, state);
  if (state.status === 'none') throw notFound('campaign', 'campaign_id');
  const id = state.campaign_id;
  switch (command.type) {
    case 'add_contacts':
      if (state.status !== 'draft')
        throw new DomainError(
          'conflict',
          `Contacts can be added only to a draft campaign; this one is ${shown(state)}.`,
        );
      checkSize(state.contacts.size + command.contacts.length);
      return command.contacts.length === 0
        ? []
        : [{ type: 'campaign.contacts_added', data: { contacts: command.contacts } }];
    case 'start':
      if (state.status !== 'draft') throw new DomainError('conflict', `The campaign is already ${shown(state)}.`);
      return starting(state, command.at);
    case 'pause':
      if (state.status === 'running' || state.status === 'paused_quiet_hours')
        return [{ type: 'campaign.paused', data: { campaign_id: id, paused_at: command.at, reason: 'manual' } }];
      throw new DomainError('conflict', `Only a running campaign can be paused; this one is ${shown(state)}.`);
    case 'resume':
      if (state.status === 'paused')
        return [{ type: 'campaign.resumed', data: { campaign_id: id, resumed_at: command.at, reason: 'manual' } }];
      if (state.status === 'paused_quiet_hours')
        throw new DomainError(
          'conflict',
          `The campaign is paused for its contacts' quiet hours and resumes by itself at ${String(state.nextOpenAt)}.`,
        );
      throw new DomainError('conflict', `Only a paused campaign can be resumed; this one is ${shown(state)}.`);
    case 'pace':
      // A round with nothing to do still completes a campaign whose contacts are all terminal (or none).
      return withCompletion(state, pace(state, new Date(command.at), command.facts), command.at, true);
    case 'record_outcome':
      return withCompletion(state, finishing(state, [command]), command.at);
    case 'record_outcomes':
      return withCompletion(state, finishing(state, command.outcomes), command.at);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** Each outcome finishes its contact, in order, each on the state the ones before it left (a repeat is a no-op). */
function finishing(state: Campaign, outcomes: readonly Outcome[]): CampaignEvent[] {
  const events: CampaignEvent[] = [];
  let current: CampaignState = state;
  for (const o of outcomes) {
    const contact = current.status === 'none' ? undefined : current.contacts.get(o.contactId);
    if (!contact) continue;
    const finish: ContactCommand = {
      type: 'finish',
      outcome: o.outcome,
      sessionId: o.sessionId,
      durationSeconds: o.durationSeconds,
      costCents: o.costCents,
    };
    const decided = decideContact(finish, contact);
    events.push(...decided);
    current = decided.reduce(evolve, current);
  }
  return events;
}

function create(command: Extract<CampaignCommand, { type: 'create' }>, state: CampaignState): CampaignEvent[] {
  if (state.status !== 'none') return []; // a retried creation creates nothing twice
  checkSize(command.contacts.length);
  const { definition } = command;
  const events: CampaignEvent[] = [
    { type: 'campaign.defined', data: definition },
    {
      type: 'campaign.created',
      data: {
        campaign_id: definition.campaign_id,
        name: definition.name,
        channel: 'phone_call',
        session_type: 'phone_call',
      },
    },
  ];
  if (command.contacts.length > 0)
    events.push({ type: 'campaign.contacts_added', data: { contacts: command.contacts } });
  if (!command.start) return events;
  const draft = events.reduce(evolve, state);
  return draft.status === 'none' ? events : [...events, ...starting(draft, command.at)];
}

function starting(state: Campaign, at: string): CampaignEvent[] {
  return [
    { type: 'campaign.started', data: { campaign_id: state.campaign_id, started_at: at } },
    // The agent as it is now is the one every call of the campaign uses (and its dispositions).
    { type: 'campaign.agent_frozen', data: { agent_config: state.agent_config } },
  ];
}

/** The events, followed by campaign.completed when they leave every contact terminal. */
function withCompletion(state: Campaign, events: CampaignEvent[], at: string, evenIfNone = false): CampaignEvent[] {
  if ((events.length === 0 && !evenIfNone) || state.status === 'draft' || state.status === 'completed') return events;
  const after = events.reduce(evolve, state);
  if (after.status === 'none' || after.status === 'completed') return events;
  if (after.counts.pending + after.counts.dispatched > 0) return events;
  return [
    ...events,
    {
      type: 'campaign.completed',
      data: {
        campaign_id: state.campaign_id,
        completed_at: at,
        total_contacts: after.contacts.size,
        completed_sessions: after.counts.completed,
        failed_sessions: after.counts.failed,
      },
    },
  ];
}

function checkSize(total: number): void {
  if (total > MAX_CONTACTS_PER_CAMPAIGN)
    throw new DomainError(
      'unprocessable',
      `A campaign holds at most ${MAX_CONTACTS_PER_CAMPAIGN} contacts; this would make ${total}.`,
      'contacts',
    );
}

/** The status as the API shows it. */
export function shown(state: Campaign): string {
  return state.status === 'paused_quiet_hours' ? 'paused (quiet hours)' : state.status;
}

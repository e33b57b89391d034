import type { SessionDispositionSetData, SessionStatus } from '../sessions.events';
import { DomainError } from '../../kernel/result';
import type { DispositionOption } from './disposition-evaluator';

/**
 * The rules of `session.disposition_set` (docs/campaigns.md, "Dispositions"), beside the
 * session decider, which applies them: one disposition at most per session, for a completed
 * campaign call whose agent has a disposition list and gave no disposition during the call.
 */

/** Stores an evaluator's verdict; `at` is when it was evaluated. */
export interface SetDisposition {
  type: 'set_disposition';
  code: string;
  note: string | null;
  evaluator: string;
  model: string | null;
  at: string;
}

/** What the rules read of a session's state (the decider's live state has these fields). */
export interface DispositionFacts {
  sessionId: string;
  status: SessionStatus;
  campaignId: string | null;
  contactId: string | null;
  dispositions: readonly DispositionOption[];
  /** The agent gave a disposition during the call (`session.agent_disposition_given`). */
  agentDisposition: boolean;
  dispositionSet: boolean;
}

export type DispositionSkip =
  'not_a_campaign_call' | 'no_dispositions' | 'agent_gave_one' | 'not_completed' | 'not_ended' | 'already_set';

/** Why this session gets no (further) disposition now, or null when one is due. */
export function dispositionSkip(s: DispositionFacts): DispositionSkip | null {
  // The catalog payload requires both ids: a campaign call always has its contact.
  if (s.campaignId === null || s.contactId === null) return 'not_a_campaign_call';
  if (s.dispositions.length === 0) return 'no_dispositions';
  if (s.agentDisposition) return 'agent_gave_one';
  if (s.status === 'queued' || s.status === 'in_progress') return 'not_ended';
  // Only session.ended (status completed) is followed by a disposition; session.failed is not.
  if (s.status !== 'completed') return 'not_completed';
  if (s.dispositionSet) return 'already_set';
  return null;
}

/**
 * The disposition event, once: nothing when the session gets none (or has one already), a refusal
 * for a session that has not ended and for a code outside the agent's list.
 */
export function decideDisposition(
  s: DispositionFacts,
  command: SetDisposition,
): { type: 'session.disposition_set'; data: SessionDispositionSetData }[] {
  const skip = dispositionSkip(s);
  if (skip === 'not_ended') throw new DomainError('conflict', 'The session has not ended yet.');
  if (skip !== null || s.campaignId === null || s.contactId === null) return [];
  if (!s.dispositions.some((d) => d.code === command.code)) {
    throw new DomainError(
      'unprocessable',
      `disposition_code must be one of the agent's codes: ${s.dispositions.map((d) => d.code).join(', ')}.`,
      'disposition_code',
    );
  }
  return [
    {
      type: 'session.disposition_set',
      data: {
        session_id: s.sessionId,
        campaign_id: s.campaignId,
        contact_id: s.contactId,
        disposition_code: command.code,
        disposition_note: command.note,
        evaluated_at: command.at,
        evaluator: command.evaluator,
        model: command.model,
      },
    },
  ];
}

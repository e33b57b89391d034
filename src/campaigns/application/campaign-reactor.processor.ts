import type { DomainEvent } from '../../kernel/decider';
import { defineReactor, type Handled, type Processor } from '../../runtime/processing/processor';
import type { ScheduleTimer, TimersService } from '../../runtime/timers/timers.service';
import { sessionEdge, sessionStream, type SessionEndedData, type SessionFailedData } from '../../sessions';
import { type CampaignEvent, campaignEdge, campaignStream } from '../domain/campaign.decider';
import {
  CAMPAIGN_TIMER,
  type OutcomePayload,
  type PacePayload,
  pacerTimer,
  PLACE_CALL_BACKUP_MS,
  type PlaceCallPayload,
} from './pacer';

type ReactsTo =
  | Extract<CampaignEvent, { type: 'campaign.started' | 'campaign.resumed' | 'campaign.contact_dispatched' }>
  | DomainEvent<'session.ended', SessionEndedData>
  | DomainEvent<'session.failed', SessionFailedData>;

/**
 * Turns what happens to a campaign into durable timers, in the transaction of its checkpoint: a start
 * or a resume wakes the campaign's pacer; a dispatch schedules a backup placement of its call; a
 * campaign call's terminal session event schedules the recording of the contact's outcome.
 */
export function campaignReactor(timers: TimersService): Processor {
  let scheduled = false;
  return defineReactor<ReactsTo>({
    name: 'campaign_reactor',
    edge: campaignEdge
      .only('campaign.started', 'campaign.resumed', 'campaign.contact_dispatched')
      .and(sessionEdge.only('session.ended', 'session.failed')),
    afterCommit: () => {
      if (scheduled) timers.poke();
      scheduled = false;
    },
    async applyBatch(tx, events: readonly Handled<ReactsTo>[]) {
      const due: ScheduleTimer[] = [];
      const wakes = new Map<string, { payload: PacePayload; at: number }>();
      for (const event of events) {
        const tenantId = event.metadata.tenant_id;
        // Each type from its own stream only: a session's events from a session's stream, a campaign's from its own.
        const owner = event.type.startsWith('session.') ? sessionStream : campaignStream;
        if (!tenantId || !owner.owns(event.streamId)) continue;
        const at = Date.parse(event.metadata.created_at);
        switch (event.type) {
          case 'campaign.started':
          case 'campaign.resumed':
            wakes.set(event.data.campaign_id, {
              payload: { tenant_id: tenantId, campaign_id: event.data.campaign_id },
              at,
            });
            break;
          case 'campaign.contact_dispatched': {
            const payload: PlaceCallPayload = {
              tenant_id: tenantId,
              campaign_id: event.data.campaign_id,
              contact_id: event.data.contact_id,
            };
            due.push(
              CAMPAIGN_TIMER.placeCall.at({
                dueAt: new Date(at + PLACE_CALL_BACKUP_MS),
                payload,
                dedupeKey: `campaign.place_call:${event.data.contact_id}`,
              }),
            );
            break;
          }
          case 'session.ended':
          case 'session.failed': {
            const { campaign_id: campaignId, contact_id: contactId } = event.data;
            if (!campaignId || !contactId) break;
            const payload: OutcomePayload = {
              tenant_id: tenantId,
              campaign_id: campaignId,
              contact_id: contactId,
              session_id: event.data.session_id,
              outcome: event.type === 'session.ended' ? 'completed' : 'failed',
              duration_seconds: event.data.duration_seconds,
              actual_cost_cents: event.data.actual_cost_cents,
            };
            due.push(
              CAMPAIGN_TIMER.outcome.at({
                dueAt: new Date(at),
                payload,
                dedupeKey: `campaign.outcome:${event.data.session_id}`,
              }),
            );
            break;
          }
          default: {
            const unreachable: never = event;
            void unreachable;
          }
        }
      }
      scheduled = due.length > 0 || wakes.size > 0;
      await timers.scheduleMany(due, tx);
      for (const { payload, at } of wakes.values()) await timers.wake(pacerTimer(payload, new Date(at)), tx);
    },
  });
}

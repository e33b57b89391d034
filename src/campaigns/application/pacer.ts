import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ListedNumbers } from '../../dnc';
import { CLOCK, Clock } from '../../kernel/clock';
import { DomainError } from '../../kernel/result';
import { CommandExecutor } from '../../runtime/commands/command-executor';
import { defineTimerKind, TimersService, type DueTimer, type TimerOutcome } from '../../runtime/timers/timers.service';
import { AgentConfig, BillingHolds, PlaceCallCommand, RecentCallsTo } from '../../sessions';
import { GetTenant } from '../../tenants';
import { Campaign, CampaignEvent, campaignDecider, campaignStream, Outcome } from '../domain/campaign.decider';
import type { Contact } from '../domain/contact';
import {
  CALLS_LOOKBACK_MS,
  freedLines,
  isPaced,
  nextPaceAt,
  numbersToCheck,
  PaceFacts,
  stoppedShort,
} from '../domain/pacing';

/*
 * The pacer's timers: their kinds and payloads (the campaign reactor schedules them, this file runs them).
 */
/** How long after a dispatch the call is placed again if the pacer could not (a crash between the two): a no-op otherwise. */
export const PLACE_CALL_BACKUP_MS = 15_000;

export interface PacePayload {
  tenant_id: string;
  campaign_id: string;
}

export interface OutcomePayload extends PacePayload {
  contact_id: string;
  session_id: string;
  outcome: 'completed' | 'failed';
  duration_seconds: number;
  actual_cost_cents: number;
}

export interface PlaceCallPayload extends PacePayload {
  contact_id: string;
}

const campaign = { tenant_id: true, campaign_id: true } as const;

/** The pacer's timer kinds, each with its payload type (timer-kind.ts). */
export const CAMPAIGN_TIMER = {
  pace: defineTimerKind<PacePayload>('campaign.pace', campaign),
  outcome: defineTimerKind<OutcomePayload>('campaign.outcome', {
    ...campaign,
    contact_id: true,
    session_id: true,
    outcome: true,
    duration_seconds: true,
    actual_cost_cents: true,
  }),
  placeCall: defineTimerKind<PlaceCallPayload>('campaign.place_call', { ...campaign, contact_id: true }),
};

export const pacerTimer = (p: PacePayload, dueAt: Date) =>
  CAMPAIGN_TIMER.pace.at({
    dedupeKey: `campaign.pace:${p.campaign_id}`,
    dueAt,
    payload: { tenant_id: p.tenant_id, campaign_id: p.campaign_id },
  });

/** The agent of a campaign created without one: its calls still need a prompt; it gives no dispositions. */
export const DEFAULT_CAMPAIGN_AGENT: AgentConfig = {
  prompt: 'You are calling on behalf of the account holder. Introduce yourself and help the person you reach.',
};

/**
 * Pacing rounds one run of the pacer may take in a row (each one when the last ran out of looked-up
 * numbers, or when lines were freed while it placed its calls).
 */
const MAX_ROUNDS = 10;

/**
 * The campaign pacer and the work around it, all on durable timers:
 *
 * - `campaign.pace`, one row per campaign (its dedupe key): claiming that row under the timer
 *   service's lease is what makes one pacer per campaign run at a time, across instances. A round
 *   gathers the facts (tenant status, do-not-call list, recent calls to the numbers), decides on the
 *   campaign's stream (an append with its expected version: a contact is dispatched at most once),
 *   then places the calls of the contacts it dispatched. The row then waits for its next wake-up:
 *   a call outcome, a start or resume (`TimersService.wake`), the quiet-hours window, `ends_at`.
 * - `campaign.outcome`: records a campaign call's outcome on its contact, and wakes the pacer.
 *   Outcomes that arrive while the campaign's stream is being written are recorded together, by one
 *   command, once that write is done (`recordQueued`).
 * - `campaign.place_call`: places a dispatched contact's call again a while later, in case the pacer
 *   stopped between the dispatch and the call (a crash); the session id is the contact's, so a call
 *   already placed is not placed twice.
 *
 * Every write of this process to a campaign's stream (a round's decision, outcomes) goes through the
 * campaign's lane, one at a time: writers that raced each other would each but one fail on the
 * expected version, read the whole stream again and retry (with a hundred calls ending at once, some
 * ran out of retries and their timers backed off for seconds). Another instance's writes can still
 * race these; the expected version and the executor's retries handle that, as before. After placing
 * its calls, a run takes another round at once when outcomes recorded here meanwhile freed lines.
 */
@Injectable()
export class CampaignPacer {
  private readonly logger = new Logger('CampaignPacer');
  /** Per campaign: the tail of its lane (writes to its stream, one after another). */
  private readonly lanes = new Map<string, Promise<void>>();
  /** Per campaign: outcomes waiting for the lane, each with what its timer awaits. */
  private readonly queued = new Map<string, QueuedOutcome[]>();

  constructor(
    private readonly timers: TimersService,
    private readonly executor: CommandExecutor,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly holds: BillingHolds,
  ) {}

  register(): void {
    this.timers.register(CAMPAIGN_TIMER.pace, (t) => this.pace(t));
    this.timers.register(CAMPAIGN_TIMER.outcome, (t) => this.outcome(t));
    this.timers.register(CAMPAIGN_TIMER.placeCall, (t) => this.placeAgain(t));
  }

  /**
   * One run of the pacer, top to bottom; each step's policy is in domain/pacing.ts, in the same order.
   * Rounds: (1) gather the facts the round needs; (2) decide it on the campaign's stream, in its lane
   * (the decider's `pace`: skips, dispatches, quiet-hours pause or resume); (3) place the calls of the
   * contacts it dispatched; (4) take another round at once if it stopped short or lines were freed
   * meanwhile. Then (5) the row waits for its next wake, parked on the credit hold while one is on
   * the tenant.
   */
  private async pace(timer: DueTimer<PacePayload>): Promise<TimerOutcome<PacePayload>> {
    const p = timer.payload;
    const stream = campaignStream(p.campaign_id);
    let state = await this.executor.state(stream, campaignDecider);
    let held = false;
    for (let round = 0; round < MAX_ROUNDS && isPaced(state); round++) {
      const at = this.clock.now();
      // (1) The facts: the tenant's status, the credit hold, the numbers' do-not-call entries and recent calls.
      const facts = await this.facts(p.tenant_id, state, at);
      held = facts.held === true;
      // (2) The round's decision, appended in the campaign's lane.
      const result = await this.inLane(p.campaign_id, () =>
        this.executor.execute(
          stream,
          campaignDecider,
          { type: 'pace', at: at.toISOString(), facts },
          { tenantId: p.tenant_id },
        ),
      );
      state = result.state;
      if (!isPaced(state)) break;
      // (3) The calls of the contacts it dispatched.
      await this.placeCalls(p.tenant_id, state, result.events);
      // (4) Another round at once?
      if (!stoppedShort(state, at, facts)) {
        const latest = await this.executor.state(stream, campaignDecider);
        if (!freedLines(state, latest)) break;
        state = latest;
      }
    }
    // (5) The next wake.
    const now = this.clock.now();
    const next = nextPaceAt(state, now);
    // Held (a depleted balance): the row is parked on the hold, released the moment it lifts (or due
    // at its next time-based wake, for quiet hours and `ends_at`); lifted meanwhile: again at once.
    if (held && next)
      return (await this.holds.park(p.tenant_id, next, { ...p })) ?? { next: { dueAt: now, payload: { ...p } } };
    return next ? { next: { dueAt: next, payload: { ...p } } } : undefined;
  }

  private async facts(tenantId: string, state: Campaign, at: Date): Promise<PaceFacts> {
    const tenant = await this.queries.execute(new GetTenant(tenantId));
    // Test-mode campaigns cost nothing: no hold applies to them.
    const held = !state.test_mode && (await this.holds.isHeld(tenantId));
    const checked = numbersToCheck(state, at);
    if (tenant?.status === 'suspended' || checked.length === 0 || held)
      return {
        tenantSuspended: tenant?.status === 'suspended',
        held,
        checked: new Set(),
        dnc: new Set(),
        otherCalls: new Map(),
      };
    const [dnc, otherCalls] = await Promise.all([
      this.queries.execute(new ListedNumbers(tenantId, checked)),
      this.queries.execute(
        new RecentCallsTo(tenantId, checked, new Date(at.getTime() - CALLS_LOOKBACK_MS), state.campaign_id),
      ),
    ]);
    return { tenantSuspended: false, held, checked: new Set(checked), dnc, otherCalls };
  }

  private async placeCalls(tenantId: string, state: Campaign, events: readonly { type: string; data: object }[]) {
    const dispatched = events.filter(
      (e): e is Extract<CampaignEvent, { type: 'campaign.contact_dispatched' }> =>
        e.type === 'campaign.contact_dispatched',
    );
    await Promise.all(
      dispatched.map(async (e) => {
        const contact = state.contacts.get(e.data.contact_id);
        if (!contact) return;
        // A failure here is left to the backup placement (`campaign.place_call`).
        await this.place(tenantId, state, contact).catch((err: unknown) =>
          this.logger.warn(`placing the call of contact ${contact.contact_id} failed: ${String(err)}`),
        );
      }),
    );
  }

  /** Places the contact's call (a no-op when its session exists); a tenant that can no longer call fails the contact. */
  private async place(tenantId: string, state: Campaign, contact: Contact): Promise<void> {
    if (contact.sessionId === null || contact.e164 === null) return;
    try {
      await this.commands.execute(
        new PlaceCallCommand(tenantId, {
          sessionId: contact.sessionId,
          toNumber: contact.e164,
          fromNumber: state.from_number,
          testMode: state.test_mode,
          agentConfig: state.frozenAgent ?? DEFAULT_CAMPAIGN_AGENT,
          campaignId: state.campaign_id,
          contactId: contact.contact_id,
          contact: { email: contact.email, first_name: contact.first_name, last_name: contact.last_name },
        }),
      );
    } catch (err) {
      if (!(err instanceof DomainError && err.code === 'forbidden')) throw err;
      await this.record({
        tenant_id: tenantId,
        campaign_id: state.campaign_id,
        contact_id: contact.contact_id,
        session_id: contact.sessionId,
        outcome: 'failed',
        duration_seconds: 0,
        actual_cost_cents: 0,
      });
    }
  }

  private async placeAgain(timer: DueTimer<PlaceCallPayload>): Promise<void> {
    const p = timer.payload;
    const state = await this.executor.state(campaignStream(p.campaign_id), campaignDecider);
    if (state.status === 'none') return;
    const contact = state.contacts.get(p.contact_id);
    if (contact?.status === 'dispatched') await this.place(p.tenant_id, state, contact);
  }

  private async outcome(timer: DueTimer<OutcomePayload>): Promise<void> {
    await this.record(timer.payload);
  }

  /** Records the outcome on the contact (with others queued meanwhile); a line freed while contacts wait wakes the pacer. */
  private record(p: OutcomePayload): Promise<void> {
    const done = new Promise<void>((resolve, reject) => {
      const queue = this.queued.get(p.campaign_id) ?? [];
      queue.push({ payload: p, resolve, reject });
      this.queued.set(p.campaign_id, queue);
    });
    void this.inLane(p.campaign_id, () => this.recordQueued(p.campaign_id));
    return done;
  }

  /**
   * One command for every outcome queued for the campaign; each one's timer fails with it if it fails.
   * The lane is free again once the command is stored: waking the pacer and the timers come after.
   */
  private async recordQueued(campaignId: string): Promise<void> {
    const taken = this.queued.get(campaignId) ?? [];
    this.queued.delete(campaignId);
    const first = taken[0];
    if (!first) return; // taken by an earlier turn of the lane
    const fail = (err: unknown): void => taken.forEach((t) => t.reject(err));
    try {
      const outcomes: Outcome[] = taken.map(({ payload: o }) => ({
        contactId: o.contact_id,
        sessionId: o.session_id,
        outcome: o.outcome,
        durationSeconds: o.duration_seconds,
        costCents: o.actual_cost_cents,
      }));
      const result = await this.executor.execute(
        campaignStream(campaignId),
        campaignDecider,
        { type: 'record_outcomes', outcomes, at: this.clock.now().toISOString() },
        { tenantId: first.payload.tenant_id },
      );
      const state = result.state;
      const wake =
        result.events.length > 0 && state.status === 'running' && state.counts.pending > 0
          ? this.timers.wake(pacerTimer(first.payload, this.clock.now()))
          : Promise.resolve();
      void wake.then(() => taken.forEach((t) => t.resolve()), fail);
    } catch (err) {
      fail(err);
    }
  }

  /** Runs `write` once the campaign's earlier writes in this process are done. */
  private inLane<T>(campaignId: string, write: () => Promise<T>): Promise<T> {
    const before = this.lanes.get(campaignId) ?? Promise.resolve();
    const run = before.then(write);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.lanes.set(campaignId, tail);
    void tail.then(() => {
      if (this.lanes.get(campaignId) === tail) this.lanes.delete(campaignId);
    });
    return run;
  }
}

interface QueuedOutcome {
  payload: OutcomePayload;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/*
 * The campaign pacer's policy, pure, in the order one run of the pacer (application/pacer.ts, `pace`)
 * uses it:
 *
 * 1. `isPaced`: whether the campaign is paced at all (running, or paused for quiet hours);
 * 2. `numbersToCheck`, `CALLS_LOOKBACK_MS`: what a round must look up before it decides;
 * 3. `pace`: the round's decision on those facts (the decider's `pace` command, campaign.decider.ts);
 * 4. `stoppedShort`, `freedLines`: whether the run takes another round at once;
 * 5. `nextPaceAt`: when the pacer runs next.
 */

import { DateTime } from 'luxon';
import { idFromSeed } from '../../kernel/ids';
import type { SkipReason } from '../campaigns.events';
import type { Campaign, CampaignEvent, CampaignState } from './campaign.state';
import { Contact, ContactCommand, decideContact } from './contact';
import { isQuietAt, nextOpenAt } from './quiet-hours';

/** Whether the pacer has anything to do for the campaign: it runs, or waits for its contacts' quiet hours to end. */
export const isPaced = (state: CampaignState): state is Campaign =>
  state.status === 'running' || state.status === 'paused_quiet_hours';

/** Calls a number may have had before its day in the contact's zones began: the lookback of `otherCalls`. */
export const CALLS_LOOKBACK_MS = 48 * 3_600_000;

/** The numbers whose facts the next round needs: those of the first pending contacts that could be dispatched now. */
export function numbersToCheck(c: Campaign, at: Date, margin = 20): string[] {
  const wanted = Math.max(0, c.settings.max_concurrency - c.counts.dispatched) + margin;
  const numbers = new Set<string>();
  for (const contact of c.contacts.values()) {
    if (numbers.size >= wanted) break;
    if (contact.status !== 'pending' || contact.e164 === null) continue;
    if (!isQuietAt(contact.zones, c.settings.quiet_hours, at)) numbers.add(contact.e164);
  }
  return [...numbers];
}

/**
 * The pacer's decision for one round, pure: given the campaign, the time and the facts gathered for
 * it, which contacts are skipped (and why), which are dispatched, and whether the campaign pauses
 * for quiet hours or resumes after them. Contacts are taken in the order they were added:
 *
 * 1. tenant suspended: every pending contact is skipped (`tenant_suspended`);
 * 2. not a valid number: skipped (`invalid`);
 * 3. `ends_at` passed: skipped, `quiet_hours_expired` when it is inside its quiet hours now (it was
 *    waiting for its window), else `concurrency_full` (it was waiting for a line);
 * 4. inside its quiet hours: left pending (skipped `quiet_hours_expired` if its zones never open);
 * 5. no free line (`max_concurrency` live calls, or none at all while credits holds the tenant's
 *    billed work: a depleted balance, for a production campaign): left pending, the round ends;
 * 6. on the tenant's do-not-call list: skipped (`dnc_blocked`);
 * 7. its number already had `max_calls_per_number_per_day` calls from the tenant today (in the
 *    contact's zone; this campaign's dispatches included): skipped (`daily_cap_reached`);
 * 8. else dispatched, with a session id made from its contact id (placing it twice creates one call).
 *
 * When pending contacts remain and every one of them is inside its quiet hours, a running campaign
 * pauses (`campaign.paused_quiet_hours`, with the earliest time one opens); a campaign paused so
 * resumes (`campaign.resumed`, `quiet_hours_ended`) in the first round that finds a contact open.
 */
export interface PaceFacts {
  readonly tenantSuspended: boolean;
  /** Credits holds the tenant's billed work (a depleted balance): nothing is dispatched, contacts wait. */
  readonly held?: boolean;
  /** The numbers looked up this round (`numbersToCheck`); a contact whose number was not is left for the next round. */
  readonly checked: ReadonlySet<string>;
  /** Those of them on the tenant's do-not-call list. */
  readonly dnc: ReadonlySet<string>;
  /** For each, when the tenant's other calls to it (not this campaign's) were placed over the last 48 hours (ms). */
  readonly otherCalls: ReadonlyMap<string, readonly number[]>;
}

/** The session a contact's call gets: the same for every attempt to dispatch it. */
export const sessionIdOf = (contactId: string): string => idFromSeed('ses', `campaign-contact:${contactId}`);

const pendingOf = (c: Campaign): Contact[] => [...c.contacts.values()].filter((x) => x.status === 'pending');

export function pace(c: Campaign, at: Date, facts: PaceFacts): CampaignEvent[] {
  if (!isPaced(c)) return [];
  const events: CampaignEvent[] = [];
  const decided = (contact: Contact, command: ContactCommand): void => {
    events.push(...decideContact(command, contact));
  };
  const skip = (contact: Contact, reason: SkipReason): void => decided(contact, { type: 'skip', reason });
  const pending = pendingOf(c);
  if (facts.tenantSuspended) {
    for (const contact of pending) skip(contact, 'tenant_suspended');
    return events;
  }
  const { quiet_hours: quiet, ends_at: endsAt, max_calls_per_number_per_day: cap } = c.settings;
  const ended = endsAt !== null && at.getTime() >= Date.parse(endsAt);
  const callsToday = dailyCounter(c, at, facts);
  let free = facts.held ? 0 : c.settings.max_concurrency - c.counts.dispatched;
  let dispatched = 0;
  let openPending = false;
  let earliestOpen: number | null = null;
  for (const contact of pending) {
    if (contact.e164 === null) {
      skip(contact, 'invalid');
      continue;
    }
    const isQuiet = isQuietAt(contact.zones, quiet, at);
    if (ended) {
      skip(contact, isQuiet ? 'quiet_hours_expired' : 'concurrency_full');
      continue;
    }
    if (isQuiet) {
      const open = nextOpenAt(contact.zones, quiet, at);
      if (open === null) skip(contact, 'quiet_hours_expired');
      else earliestOpen = Math.min(earliestOpen ?? Infinity, open.getTime());
      continue;
    }
    if (free <= 0 || !facts.checked.has(contact.e164)) {
      openPending = true;
      break;
    }
    if (facts.dnc.has(contact.e164)) skip(contact, 'dnc_blocked');
    else if (callsToday.count(contact) >= cap) skip(contact, 'daily_cap_reached');
    else {
      decided(contact, { type: 'dispatch', sessionId: sessionIdOf(contact.contact_id) });
      callsToday.add(contact.e164, at.getTime());
      free--;
      dispatched++;
    }
  }
  const head: CampaignEvent[] = [];
  if (c.status === 'paused_quiet_hours' && (dispatched > 0 || openPending))
    head.push({
      type: 'campaign.resumed',
      data: { campaign_id: c.campaign_id, resumed_at: at.toISOString(), reason: 'quiet_hours_ended' },
    });
  // Dispatches carry the round's time through this marker (the catalog payload has none).
  if (dispatched > 0) head.push({ type: 'campaign.dispatch_round', data: { at: at.toISOString() } });
  const tail: CampaignEvent[] = [];
  const running = c.status === 'running' || head.length > 0;
  if (running && !openPending && earliestOpen !== null)
    tail.push({
      type: 'campaign.paused_quiet_hours',
      data: {
        campaign_id: c.campaign_id,
        paused_at: at.toISOString(),
        next_open_at: new Date(earliestOpen).toISOString(),
      },
    });
  return [...head, ...events, ...tail];
}

/** Calls to each number today in the contact's zones: the tenant's others, and this campaign's dispatches. */
function dailyCounter(c: Campaign, at: Date, facts: PaceFacts) {
  const ours = new Map<string, number[]>();
  for (const contact of c.contacts.values()) {
    if (contact.e164 === null || contact.dispatchedAt === null) continue;
    const times = ours.get(contact.e164) ?? [];
    times.push(contact.dispatchedAt);
    ours.set(contact.e164, times);
  }
  return {
    count(contact: Contact): number {
      const e164 = contact.e164 ?? '';
      const times = [...(facts.otherCalls.get(e164) ?? []), ...(ours.get(e164) ?? [])];
      if (times.length === 0) return 0;
      const since = startOfDay(contact.zones, at);
      return times.filter((t) => t >= since).length;
    },
    add(e164: string, t: number): void {
      ours.set(e164, [...(ours.get(e164) ?? []), t]);
    },
  };
}

/** The earliest local midnight among the zones (the most restrictive day). */
export function startOfDay(zones: readonly string[], at: Date): number {
  const list = zones.length > 0 ? zones : ['UTC'];
  return Math.min(...list.map((zone) => DateTime.fromJSDate(at, { zone }).startOf('day').toMillis()));
}

/**
 * The round stopped at a contact whose number it had not looked up (it looks up a margin of numbers
 * beyond the free lines; skips may use them up): the run takes another round at once.
 */
export function stoppedShort(c: Campaign, at: Date, facts: PaceFacts): boolean {
  return !numbersToCheck(c, at, 0).every((n) => facts.checked.has(n));
}

/**
 * Outcomes recorded while the round placed its calls freed lines for contacts still pending: the run
 * takes another round at once on `latest` (without it, those contacts wait for the run to end and its
 * row to be claimed again).
 */
export function freedLines(before: Campaign, latest: CampaignState): latest is Campaign {
  return (
    isPaced(latest) &&
    latest.counts.dispatched < before.counts.dispatched &&
    latest.status === 'running' &&
    latest.counts.pending > 0
  );
}

/** Longest the pacer sleeps while the campaign runs: call outcomes wake it; this is a safety net. */
export const PACER_IDLE_MS = 60_000;

/**
 * When the pacer should run next: null when it has nothing to do until a command wakes it (draft,
 * paused by hand, completed). While paused for quiet hours: when the earliest contact's window opens
 * (or `ends_at`, if sooner).
 */
export function nextPaceAt(state: CampaignState, at: Date): Date | null {
  if (!isPaced(state)) return null;
  let wake = state.settings.ends_at === null ? Infinity : Date.parse(state.settings.ends_at);
  if (state.status === 'running') wake = Math.min(wake, at.getTime() + PACER_IDLE_MS);
  else
    for (const contact of pendingOf(state)) {
      const open = nextOpenAt(contact.zones, state.settings.quiet_hours, at);
      if (open) wake = Math.min(wake, open.getTime());
    }
  return new Date(Number.isFinite(wake) ? Math.max(wake, at.getTime()) : at.getTime() + PACER_IDLE_MS);
}

/**
 * Which queued appends go together in the next group commit (decision 27). Pure, so that the rules
 * are tested without a database:
 *
 * - first come, first served: the group is a prefix of the queue, less what must wait;
 * - never two appends to one stream in a group, nor one to a stream whose group is still in flight
 *   (`busy`): the second would need the first one's outcome (its expected version is checked against
 *   the version the first leaves), so it stays queued, in its place, for a later group, and every
 *   later append to that stream stays behind it;
 * - at most `maxEvents` events, except that the first append always goes, however large.
 */
export interface Queued {
  readonly streamId: string;
  readonly events: { readonly length: number };
}

export function takeGroup<T extends Queued>(queue: T[], maxEvents: number, busy?: ReadonlySet<string>): T[] {
  const group: T[] = [];
  const streams = new Set<string>(busy);
  const waiting: T[] = [];
  let events = 0;
  let index = 0;
  for (; index < queue.length; index++) {
    const item = queue[index] as T;
    if (streams.has(item.streamId)) {
      waiting.push(item);
      continue;
    }
    if (group.length > 0 && events + item.events.length > maxEvents) break;
    group.push(item);
    streams.add(item.streamId);
    events += item.events.length;
  }
  queue.splice(0, index, ...waiting);
  return group;
}

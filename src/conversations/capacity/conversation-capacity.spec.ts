/**
 * The capacity on this process's real event loop: a busy loop (blocked 80 ms at a time) closes
 * admission at the next window; with CAPACITY_HEADROOM=off only the cap counts.
 */
import { loadConfig } from '../../config/config';
import { conversationsSettings } from '../conversations.config';
import { ConversationCapacity } from './conversation-capacity';

const capacityWith = (env: Record<string, string>) =>
  new ConversationCapacity(loadConfig(env, [conversationsSettings]));

/** Blocks the event loop for `ms` at a time, every 100 ms, for `forMs`. */
async function busyLoop(ms: number, forMs: number): Promise<void> {
  const end = Date.now() + forMs;
  while (Date.now() < end) {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      // spin: the loop cannot run timers meanwhile
    }
    await new Promise((r) => setTimeout(r, 100 - ms));
  }
}

const idle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ConversationCapacity', () => {
  const made: ConversationCapacity[] = [];
  afterEach(() => made.splice(0).forEach((c) => c.onApplicationShutdown()));
  const capacity = (env: Record<string, string>) => {
    const c = capacityWith(env);
    made.push(c);
    return c;
  };

  it('gives places up to MAX_CONVERSATIONS; a place given back (once) is free again', () => {
    const c = capacity({ MAX_CONVERSATIONS: '2' });
    const a = c.request('room');
    const b = c.request('phone_inbound');
    expect([a.slot !== null, b.slot !== null]).toEqual([true, true]);
    expect(c.request('persona')).toEqual({ slot: null, reason: 'max_conversations', retryAfterSeconds: 5 });
    expect(c.view()).toMatchObject({ active: 2, capacity: 2, admitting: false });
    a.slot?.release();
    a.slot?.release(); // once
    expect(c.view()).toMatchObject({ active: 1, admitting: true });
    expect(c.request('room').slot).not.toBeNull();
  });

  it('outbound calls go in the order they first asked, even when a place frees for a later one', () => {
    const c = capacity({ MAX_CONVERSATIONS: '1' });
    const held = c.request('phone_inbound');
    expect(c.requestInLine('ses_first').slot).toBeNull();
    expect(c.requestInLine('ses_second').slot).toBeNull();
    held.slot?.release();
    // The second asks first once the place is free: it waits for the first, which then gets it.
    expect(c.requestInLine('ses_second')).toMatchObject({ slot: null, reason: 'max_conversations' });
    const first = c.requestInLine('ses_first');
    expect(first.slot).not.toBeNull();
    first.slot?.release();
    expect(c.requestInLine('ses_second').slot).not.toBeNull();
  });

  it('a call that first asks while others wait goes behind them, even when a place is free', () => {
    const c = capacity({ MAX_CONVERSATIONS: '1' });
    const held = c.request('phone_inbound');
    expect(c.requestInLine('ses_waiting').slot).toBeNull();
    held.slot?.release();
    expect(c.requestInLine('ses_newcomer')).toMatchObject({ slot: null });
    expect(c.requestInLine('ses_waiting').slot).not.toBeNull();
    // With nobody waiting, a newcomer takes a free place at once.
    const alone = capacity({ MAX_CONVERSATIONS: '1' });
    expect(alone.requestInLine('ses_alone').slot).not.toBeNull();
  });

  it('a busy event loop closes admission at the next window (while it carries a call); it opens again after', async () => {
    const c = capacity({ MAX_CONVERSATIONS: '10' });
    const carried = c.request('room');
    expect(carried.slot).not.toBeNull();
    await busyLoop(80, 1_300);
    expect(c.view()).toMatchObject({ admitting: false, strains: ['event_loop'] });
    expect(c.request('room')).toEqual({ slot: null, reason: 'headroom', retryAfterSeconds: 5 });
    // An instance that carries nothing admits, strained or not, and says so.
    carried.slot?.release();
    expect(c.view()).toMatchObject({ active: 0, admitting: true });
    const alone = c.request('room');
    expect(alone.slot).not.toBeNull();
    // Calm windows: open again after the cool-down (two calm windows of one second; a loaded
    // machine may strain a window of its own, so up to 10 s).
    for (let waited = 0; waited < 10_000 && !c.view().admitting; waited += 250) await idle(250);
    expect(c.view()).toMatchObject({ admitting: true, strains: [] });
    expect(c.request('room').slot).not.toBeNull();
  }, 20_000);

  it('CAPACITY_HEADROOM=off: the same busy loop refuses nothing below the cap', async () => {
    const c = capacity({ MAX_CONVERSATIONS: '10', CAPACITY_HEADROOM: 'off' });
    expect(c.request('room').slot).not.toBeNull();
    await busyLoop(80, 1_300);
    expect(c.view()).toMatchObject({ admitting: true, active: 1 });
    expect(c.request('room').slot).not.toBeNull();
  }, 15_000);
});

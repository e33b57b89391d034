import type { DueTimer } from '../../runtime/timers/timers.service';
import { CallDialer, type DialResult } from './call-dialer';
import { type DispatchPayload, type SessionPlacedRequest, TIMER } from './session-reactor.processor';
import { SessionTimers } from './session-timers';

/** A dialer that answers what it is told, and remembers what it was asked. */
class ScriptedDialer extends CallDialer {
  readonly asked: string[] = [];
  constructor(private readonly answers: DialResult[]) {
    super();
  }
  dial(request: SessionPlacedRequest): Promise<DialResult> {
    this.asked.push(request.session_id);
    return Promise.resolve(this.answers.shift() ?? { placed: true });
  }
}

/** SessionTimers with fakes around it, and its `media.dispatch` handler. */
function setUp(dialer: CallDialer | null, config: Record<string, unknown>) {
  const handlers = new Map<unknown, (timer: DueTimer<DispatchPayload>) => Promise<unknown>>();
  const actions: { type: string; reason?: string }[] = [];
  const timers = { register: (kind: unknown, handler: never) => handlers.set(kind, handler) };
  const commands = { execute: (c: { action: { type: string } }) => (actions.push(c.action), Promise.resolve({})) };
  const holds = { park: () => Promise.resolve(null) };
  const clock = { now: () => new Date('2026-11-27T10:00:00Z') };
  const box = { open: (s: string) => s };
  const sessionTimers = new SessionTimers(
    timers as never,
    commands as never,
    { mediaGatewayUrl: null, mediaGatewaySecret: null, sipTrunkUri: 'sip:127.0.0.1:5070', ...config } as never,
    {} as never,
    holds as never,
    clock,
    box as never,
    {} as never,
    dialer,
  );
  sessionTimers.register();
  const dispatch = handlers.get(TIMER.gatewayDispatch);
  if (!dispatch) throw new Error('no media.dispatch handler');
  return { dispatch, actions };
}

const request = { session_id: 'ses_1', to_number: '+14155550177', agent_config: { prompt: 'x' } } as never;
const timer = (payload: Partial<DispatchPayload> = {}): DueTimer<DispatchPayload> =>
  ({
    timerId: 't1',
    dueAt: new Date(),
    payload: { tenant_id: 'ten_1', session_id: 'ses_1', request, held_until: Date.now() + 60_000, ...payload },
  }) as never;

describe('the dispatch of a production call over SIP', () => {
  it('a call the carrier budget has room for is dialled, and the timer is done', async () => {
    const dialer = new ScriptedDialer([{ placed: true }]);
    const { dispatch, actions } = setUp(dialer, {});
    expect(await dispatch(timer())).toBeUndefined();
    expect(dialer.asked).toEqual(['ses_1']);
    // held_until in the payload: it had waited on credits, so the session is released.
    expect(actions).toEqual([{ type: 'release' }]);
  });

  it('without room the session is held carrier_limit once and the timer comes back at retryAt', async () => {
    const retryAt = new Date('2026-11-27T10:00:02Z');
    const dialer = new ScriptedDialer([
      { placed: false, retryAt, holdReason: 'carrier_limit' },
      { placed: false, retryAt, holdReason: 'carrier_limit' },
      { placed: true },
    ]);
    const { dispatch, actions } = setUp(dialer, {});
    const first = (await dispatch(timer())) as { next: { dueAt: Date; payload: DispatchPayload } };
    expect(first.next.dueAt).toEqual(retryAt);
    expect(first.next.payload.carrier_held).toBe(true);
    expect(actions).toEqual([{ type: 'hold', reason: 'carrier_limit' }]);
    const second = (await dispatch({ ...timer(), payload: first.next.payload })) as {
      next: { payload: DispatchPayload };
    };
    expect(actions).toEqual([{ type: 'hold', reason: 'carrier_limit' }]); // still the same hold: not again
    // Tried again: dialled now, the hold is lifted.
    expect(await dispatch({ ...timer(), payload: second.next.payload })).toBeUndefined();
    expect(actions).toEqual([{ type: 'hold', reason: 'carrier_limit' }, { type: 'release' }]);
    expect(dialer.asked).toEqual(['ses_1', 'ses_1', 'ses_1']);
  });

  it('a call that waits on the trunk and then on its tenant is held for each reason in turn', async () => {
    const retryAt = new Date('2026-11-27T10:00:02Z');
    const dialer = new ScriptedDialer([
      { placed: false, retryAt, holdReason: 'carrier_limit' },
      { placed: false, retryAt, holdReason: 'concurrency_limit' },
      { placed: true },
    ]);
    const { dispatch, actions } = setUp(dialer, {});
    const first = (await dispatch(timer())) as { next: { payload: DispatchPayload } };
    const second = (await dispatch({ ...timer(), payload: first.next.payload })) as {
      next: { payload: DispatchPayload };
    };
    expect(second.next.payload.held_for).toBe('concurrency_limit');
    expect(await dispatch({ ...timer(), payload: second.next.payload })).toBeUndefined();
    expect(actions).toEqual([
      { type: 'hold', reason: 'carrier_limit' },
      { type: 'hold', reason: 'concurrency_limit' },
      { type: 'release' },
    ]);
  });

  it('without SIP_TRUNK_URI the dialer is never asked', async () => {
    const dialer = new ScriptedDialer([]);
    const noTrunk = setUp(dialer, { sipTrunkUri: null });
    expect(await noTrunk.dispatch(timer())).toBeUndefined();
    expect(dialer.asked).toEqual([]);
  });
});

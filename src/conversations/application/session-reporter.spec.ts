import { DomainError } from '../../kernel/result';
import { SessionActionCommand, sessionSignals } from '../../sessions';
import { SessionReporter } from './session-reporter';

/** The first seq of a call's mid-call signals (sessions' SessionSignalWriter). */
const FIRST_DURING_CALL_SEQ = 1000;

/** A CommandBus stand-in: records each signal when it is applied; each takes `delays[i]` ms. */
function bus(failures: Record<number, Error[]> = {}) {
  const applied: { seq: number; kind: string }[] = [];
  let running = 0;
  let overlapped = false;
  return {
    applied,
    get overlapped() {
      return overlapped;
    },
    execute: async (command: SessionActionCommand) => {
      const action = command.action;
      if (action.type !== 'signal') throw new Error('not a signal');
      running++;
      if (running > 1) overlapped = true;
      // Later signals answer sooner: only the queue keeps them in order.
      await new Promise((r) => setTimeout(r, Math.max(1, 30 - (action.seq - FIRST_DURING_CALL_SEQ) * 10)));
      running--;
      const failure = failures[action.seq]?.shift();
      if (failure) throw failure;
      applied.push({ seq: action.seq, kind: action.signal.kind });
      return { applied: true };
    },
  };
}

describe('SessionReporter', () => {
  it('applies signals one at a time, in order, numbered from 1000, the hang-up after them all; each report resolves once applied', async () => {
    const commands = bus();
    const reporter = new SessionReporter(sessionSignals(commands, 'ten_1', 'ses_1'));
    const first = reporter.turn({ role: 'user', content: 'hello', t: 1.234 });
    void reporter.functionTimeout({ function_id: 'call_1', name: 'x', timeout_ms: 5000 });
    void reporter.functionInvoked({ name: 'x', status: 'timeout', duration_ms: 15000 });
    void reporter.transfer('+14155550123');
    void reporter.optOut();
    await first;
    expect(commands.applied).toEqual([{ seq: 1000, kind: 'turn' }]);
    await reporter.ended('transferred');
    expect(commands.applied).toEqual([
      { seq: 1000, kind: 'turn' },
      { seq: 1001, kind: 'function_timeout' },
      { seq: 1002, kind: 'function_invoked' },
      { seq: 1003, kind: 'transfer' },
      { seq: 1004, kind: 'opt_out' },
      { seq: 2_000_000_000, kind: 'hangup' },
    ]);
    expect(commands.overlapped).toBe(false);
  });

  it('retries a failed signal with the same seq, but not a refusal; a refusal does not stop the queue', async () => {
    const commands = bus({ 1000: [new Error('connection reset')], 1001: [new DomainError('not_found', 'no session')] });
    const reporter = new SessionReporter(sessionSignals(commands, 'ten_1', 'ses_1'));
    await reporter.turn({ role: 'agent', content: 'Hi.', t: 0.5 });
    await expect(reporter.optOut()).rejects.toThrow('no session');
    await reporter.turn({ role: 'user', content: 'x'.repeat(6000), t: 2 });
    expect(commands.applied.map((a) => a.seq)).toEqual([1000, 1002]);
  });

  it("leaves a hang-up to the host, and hands the agent's end to onEnded when given", async () => {
    const commands = bus();
    const ends: string[] = [];
    const hosted = new SessionReporter(sessionSignals(commands, 'ten_1', 'ses_1'), (reason) => {
      ends.push(reason);
      return Promise.resolve();
    });
    await hosted.turn({ role: 'agent', content: 'Bye.', t: 1 });
    await hosted.ended('end_call');
    await new SessionReporter(sessionSignals(commands, 'ten_1', 'ses_2')).ended('hangup');
    expect(ends).toEqual(['end_call']);
    expect(commands.applied.map((a) => a.kind)).toEqual(['turn']);
  });

  it("publishes partial words to the session's live views (cut at 5000 characters), never as a signal", async () => {
    const commands = bus();
    const published: { sessionId: string; content: string; t: number }[] = [];
    const partials = {
      publish: (sessionId: string, p: { content: string; t: number }) => published.push({ sessionId, ...p }),
    };
    const reporter = new SessionReporter(sessionSignals(commands, 'ten_1', 'ses_1'), undefined, partials);
    reporter.partial({ content: 'Hello th', t: 2.25 });
    reporter.partial({ content: 'y'.repeat(6000), t: 2.25 });
    // Without a publisher, dropped.
    new SessionReporter(sessionSignals(commands, 'ten_1', 'ses_2')).partial({ content: 'Hi', t: 1 });
    await reporter.turn({ role: 'user', content: 'Hello there', t: 2.25 });
    expect(published).toEqual([
      { sessionId: 'ses_1', content: 'Hello th', t: 2.25 },
      { sessionId: 'ses_1', content: 'y'.repeat(5000), t: 2.25 },
    ]);
    expect(commands.applied.map((a) => a.kind)).toEqual(['turn']);
  });
});

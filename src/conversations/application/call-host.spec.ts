import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BlobStore } from '../../infra/blobs/blob-store.port';
import { TransportListeners } from '../../kernel/media/transport-listeners';
import type { SessionActionCommand } from '../../sessions';
import type { AudioTransport } from '../pipeline/audio-transport';
import type { ConversationEnd, ConversationReporter } from '../pipeline/conversation-reporter';
import { CallHost, type CallSink, type HostCall } from './call-host';
import type { StartConversation } from './conversations.service';

type Ending = { by: 'remote' } | { by: 'agent'; reason: string } | { by: 'broke' };

/** What happened, in order, across the sink, the line, the conversation, the recorder and the session. */
let log: string[];
let dir: string;

/** A Conversations stand-in: the conversation ends when told, or when the test makes the agent end it. */
function conversations() {
  let reporter: ConversationReporter | null = null;
  let finish: (reason: ConversationEnd) => void = () => undefined;
  const fake = {
    started: 0,
    start(request: StartConversation) {
      fake.started++;
      reporter = request.reporter;
      log.push('conversation started');
      const finished = new Promise<ConversationEnd>((resolve) => (finish = resolve));
      return {
        end: async () => {
          log.push('conversation ended');
          finish('hangup');
          await reporter?.ended('hangup');
        },
        finished,
      };
    },
    /** The agent says goodbye: the reporter tells the host. */
    async agentEnds(reason: ConversationEnd) {
      finish(reason);
      await reporter?.ended(reason);
    },
    async turn() {
      await reporter?.turn({ role: 'agent', content: 'Hello.', t: 0.5 });
    },
  };
  return fake;
}

/** The session's CommandBus: records each signal's seq and kind. */
function bus() {
  return {
    execute: (command: SessionActionCommand) => {
      const action = command.action;
      if (action.type === 'signal') log.push(`signal ${action.seq} ${action.signal.kind}`);
      return Promise.resolve({ applied: true });
    },
  };
}

function blobs(): BlobStore {
  return {
    kind: 'memory',
    put: async (key: string) => void log.push(`stored ${key}`),
    copy: () => Promise.resolve(false),
    open: () => Promise.resolve(null),
    delete: () => Promise.resolve(),
    deletePrefix: () => Promise.resolve(0),
    close: () => Promise.resolve(),
  };
}

function transport(): AudioTransport {
  const listeners = new TransportListeners();
  return {
    sampleRate: 16_000,
    onFrame: (l) => listeners.onFrame(l),
    play: () => undefined,
    onClosed: (l) => listeners.onClosed(l),
  };
}

function sink(answered: Promise<void> = Promise.resolve()): CallSink<Ending> {
  return {
    answered: async () => {
      await answered;
      log.push('answered');
    },
    ended: async (ending) => void log.push(`ended ${ending.by}`),
    recorded: async ({ recordingId, seconds }) => void log.push(`recorded ${recordingId} ${seconds}`),
  };
}

function recording(id: string) {
  const path = join(dir, `${id}.wav`);
  return {
    id,
    path,
    recorder: {
      finish: async () => {
        writeFileSync(path, 'RIFF');
        log.push('finished');
        return 12.4;
      },
      discard: async () => void log.push('discarded'),
    },
  };
}

function hostCall(overrides: Partial<HostCall<Ending>> = {}): HostCall<Ending> {
  return {
    tenantId: 'ten_1',
    sessionId: 'ses_1',
    agent: { prompt: '' },
    line: { hangUp: async (ending) => void log.push(`hung up ${ending.by}`) },
    sink: sink(),
    recording: recording('rec_1'),
    agentEnded: (reason) => ({ by: 'agent', reason }),
    ...overrides,
  };
}

function host(convs: ReturnType<typeof conversations>): CallHost {
  return new CallHost(convs, bus(), blobs());
}

beforeEach(() => {
  log = [];
  dir = mkdtempSync(join(tmpdir(), 'call-host-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('CallHost', () => {
  it('ends once, in order: conversation, line, sink, then the recording stored and reported', async () => {
    const convs = conversations();
    const call = host(convs).open(hostCall());
    await call.converse(transport(), new Date());
    await convs.turn();
    await Promise.all([call.end({ by: 'remote' }), call.end({ by: 'broke' })]);
    await call.end({ by: 'remote' });
    expect(log).toEqual([
      'answered',
      'conversation started',
      'signal 1000 turn',
      'conversation ended',
      'hung up remote',
      'ended remote',
      'finished',
      'stored recordings/rec_1.wav',
      'recorded rec_1 12.4',
    ]);
    await expect(call.ending).resolves.toEqual({ by: 'remote' });
  });

  it('starts the conversation only once the answer is stored, and not at all when the end came first', async () => {
    const convs = conversations();
    let answer: () => void = () => undefined;
    const slow = new Promise<void>((resolve) => (answer = resolve));
    const first = host(convs).open(hostCall({ sink: sink(slow) }));
    const conversing = first.converse(transport(), new Date());
    await new Promise((r) => setTimeout(r, 10));
    expect(convs.started).toBe(0);
    answer();
    await conversing;
    expect(convs.started).toBe(1);

    const second = host(convs).open(hostCall({ sink: sink(new Promise(() => undefined)) }));
    void second.converse(transport(), new Date());
    void second.end({ by: 'remote' }); // waits for the answer before the sink hears the end
    expect(second.isEnding).toBe(true);
    await new Promise((r) => setTimeout(r, 10));
    expect(convs.started).toBe(1);
    expect(log).toContain('hung up remote');
    expect(log).not.toContain('ended remote'); // a session ends once started, not before
  });

  it("the agent's end ends the call through agentEnded, and conversationOver resolves", async () => {
    const convs = conversations();
    const call = host(convs).open(hostCall());
    await call.converse(transport(), new Date());
    await convs.agentEnds('goodbye');
    await call.conversationOver;
    await expect(call.ending).resolves.toEqual({ by: 'agent', reason: 'goodbye' });
    await call.end({ by: 'remote' });
    expect(log).toContain('ended agent');
    expect(log).not.toContain('ended remote');
  });

  it('drops the recording of a call that keeps none (a broken call), and after a failed step', async () => {
    const convs = conversations();
    const broken = host(convs).open(hostCall({ keepsRecording: (ending) => ending.by !== 'broke' }));
    await broken.end({ by: 'broke' });
    expect(log).toEqual(['answered', 'hung up broke', 'ended broke', 'discarded']);

    log = [];
    const failing = host(convs).open(
      hostCall({
        sink: { ...sink(), ended: () => Promise.reject(new Error('store down')) },
        recording: recording('rec_2'),
      }),
    );
    await expect(failing.end({ by: 'remote' })).resolves.toBeUndefined();
    expect(log).toEqual(['answered', 'hung up remote', 'discarded']);
  });

  it('toSession: answered, hang-up and recording at the session\u2019s own phases', async () => {
    const convs = conversations();
    const h = host(convs);
    const call = h.open(
      hostCall({ sink: h.toSession('ten_1', 'ses_1', () => ({ status: 'completed', end_reason: 'completed' })) }),
    );
    await call.converse(transport(), new Date());
    await convs.turn();
    await call.end({ by: 'remote' });
    expect(log.filter((l) => l.startsWith('signal'))).toEqual([
      'signal 1 answered',
      'signal 1000 turn',
      'signal 2000000000 hangup',
      'signal 2000000001 recording_ready',
    ]);
  });
});

import { CommandBus } from '@nestjs/cqrs';
import { SimulatedUser } from '../../../test/support/in-memory-audio';
import { LoopbackCall } from '../infra/loopback-call';
import { startTestApp, type CreatedTenant, type TestApp } from '../../../test/support/app';
import { eventually } from '../../../test/support/eventually';
import { OpenRoomSessionCommand, sessionSignals } from '../../sessions';
import { EmbeddedSynthesizer } from '../engines/embedded/embedded-synthesizer';
import { resample } from '../../kernel/audio/rate-converter';
import { Conversations } from './conversations.service';
import { SessionReporter } from './session-reporter';

/**
 * The Conversations service in the whole application, on a real session: a room's session is
 * opened, its conversation runs on an in-memory call (real engines, real time) and its reports
 * become the session's signals: the transcript read over the API holds the turns, and the agent's
 * goodbye ends the session.
 */
describe('Conversations in the application (session signals)', () => {
  let t: TestApp;
  let tenant: CreatedTenant;
  const voice = new EmbeddedSynthesizer();
  beforeAll(async () => {
    t = await startTestApp();
    tenant = await t.createTenant('Talkers');
  });
  afterAll(async () => {
    voice.close();
    await t?.close();
  });

  it('records the user and agent turns in the session, and ends it on goodbye', async () => {
    const sessionId = `ses_conv${Date.now().toString(36)}`;
    const startedAt = new Date();
    await t.app.get(CommandBus).execute(
      new OpenRoomSessionCommand(tenant.tenant_id, {
        sessionId,
        roomId: `room_conv${Date.now().toString(36)}`,
        clientReferenceId: null,
        agentConfig: { prompt: '' },
        startedAt: startedAt.toISOString(),
      }),
    );
    const link = new LoopbackCall(48000);
    const user = new SimulatedUser(link.callee);
    link.start();
    const handle = t.app.get(Conversations).start({
      tenantId: tenant.tenant_id,
      sessionId,
      agent: { prompt: '', first_message: 'Hi.' },
      transport: link.agent,
      reporter: new SessionReporter(sessionSignals(t.app.get(CommandBus), tenant.tenant_id, sessionId)),
      startedAt,
    });
    const say = async (text: string): Promise<void> => {
      const made = await voice.synthesize(text, {});
      user.say(resample(made.samples, made.sampleRate, 48000));
    };
    const session = async () =>
      (await t.asTenant(tenant.api_key, { method: 'GET', url: `/v1/sessions/${sessionId}` })).json<{
        status: string;
        end_reason: string | null;
        transcript: { role: string; content: string; t: number }[] | null;
      }>();

    await eventually(async () => expect((await session()).transcript).toHaveLength(1), 10_000);
    await say('Hello there.');
    await eventually(async () => expect((await session()).transcript).toHaveLength(3), 15_000);
    await say('Goodbye.');
    await expect(handle.finished).resolves.toBe('goodbye');
    link.close();
    await eventually(async () => expect((await session()).status).toBe('completed'), 10_000);
    const ended = await session();
    expect(ended.transcript?.map((turn) => turn.role)).toEqual(['agent', 'user', 'agent', 'user', 'agent']);
    expect(ended.transcript?.[1]?.content).toMatch(/hello/);
    expect(ended.transcript?.[2]?.content).toMatch(/^I heard: /);
    expect(ended.transcript?.[4]?.content).toBe('Goodbye!');
    const times = ended.transcript!.map((turn) => turn.t);
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    expect(t.app.get(Conversations).liveConversations).toBe(0);
  });
});

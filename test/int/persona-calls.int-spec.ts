import { startTestApp, type CreatedTenant, type TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { decodeWav, rms } from '../support/rooms-harness';

/**
 * Test persona calls for real (docs/conversations-api.md, "Test persona calls"): a test call whose
 * callee is simulated in audio, speaking its script with the embedded synthesis in real time, and
 * the agent's conversation (pocketsphinx, the built-in dialogue, flite) answering it. The transcript
 * is what was recognised, the recording holds both sides, an opt-out lists the number.
 */
jest.setTimeout(120_000);

interface Session {
  status: string;
  end_reason: string | null;
  transcript: { role: string; content: string; t: number }[] | null;
  metrics: { turns: { voice_to_voice_ms: number }[] };
  recording: { recording_id: string; recording_url: string | null } | null;
}

describe('test persona calls', () => {
  let t: TestApp;
  let tenant: CreatedTenant;
  beforeAll(async () => {
    t = await startTestApp();
    tenant = await t.createTenant('Persona Co');
  });
  afterAll(async () => {
    await t?.close();
  });

  const place = async (script: string[], to = '+14155550100') => {
    const res = await t.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/calls',
      payload: {
        to,
        from: '+14155550000',
        test_mode: true,
        agent_config: { prompt: 'You are the front desk.', first_message: 'Hello, this is the front desk.' },
        test_persona: { script, pause_ms: 600 },
      },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ session_id: string }>().session_id;
  };
  const session = async (id: string) =>
    (await t.asTenant(tenant.api_key, { method: 'GET', url: `/v1/sessions/${id}` })).json<Session>();
  const ended = (id: string) =>
    eventually(
      async () => {
        const s = await session(id);
        expect(s.recording).not.toBeNull();
        return s;
      },
      90_000,
      500,
    );

  it('ends with a transcript recognised from the persona lines, and both sides recorded', async () => {
    const id = await place(['What time do you open tomorrow?', 'Goodbye.']);
    const s = await ended(id);
    expect(s.status).toBe('completed');
    const turns = s.transcript ?? [];
    expect(turns[0]).toMatchObject({ role: 'agent', content: 'Hello, this is the front desk.' });
    const user = turns.filter((x) => x.role === 'user').map((x) => x.content);
    // The words as pocketsphinx heard flite's voice: the telling ones come through.
    expect(user.join(' | ')).toMatch(/open|tomorrow|time/);
    expect(user.join(' | ')).toMatch(/bye/);
    const agent = turns.filter((x) => x.role === 'agent').map((x) => x.content);
    expect(agent.some((c) => c.startsWith('I heard'))).toBe(true);
    expect(agent[agent.length - 1]).toMatch(/Goodbye/);
    // Turn times increase, in seconds with milliseconds.
    for (let i = 1; i < turns.length; i++) expect(turns[i]!.t).toBeGreaterThanOrEqual(turns[i - 1]!.t);
    expect(s.metrics.turns.length).toBeGreaterThanOrEqual(1);

    const wav = await t.inject({
      method: 'GET',
      url: new URL(s.recording!.recording_url!).pathname + new URL(s.recording!.recording_url!).search,
    });
    expect(wav.statusCode).toBe(200);
    const pcm = decodeWav(wav.rawPayload);
    expect({ channels: pcm.channels, rate: pcm.sampleRate }).toEqual({ channels: 2, rate: 16000 });
    const [agentChannel, calleeChannel] = pcm.channelData as [number[], number[]];
    expect(rms(agentChannel)).toBeGreaterThan(200);
    expect(rms(calleeChannel)).toBeGreaterThan(200);
  });

  it('an opt-out in a persona call adds the called number to the do-not-call list', async () => {
    const id = await place(['Please stop calling me.'], '+14155550100');
    const s = await ended(id);
    expect(s.transcript?.some((x) => x.role === 'user' && /stop|call/.test(x.content))).toBe(true);
    await eventually(async () => {
      const list = (await t.asTenant(tenant.api_key, { method: 'GET', url: '/v1/dnc' })).json<{
        data: { phone_number: string }[];
      }>();
      expect(list.data.map((d) => d.phone_number)).toContain('+14155550100');
    }, 15_000);
  });
});

import { startTestApp, type CreatedTenant, type TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { decodeWav, rms } from '../../support/rooms-harness';

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

  it('a tenant runs at most 4 persona calls at once, on every instance together: the 5th is a 429', async () => {
    // A second instance on the same database, as the platform runs: the cap is the tenant's, not a process's.
    const b = await startTestApp({ database: t.db, adminToken: t.adminToken });
    try {
      const busy = await t.createTenant('Busy Persona Co');
      const post = (app: TestApp) =>
        app.asTenant(busy.api_key, {
          method: 'POST',
          url: '/v1/calls',
          payload: {
            to: '+14155550101',
            from: '+14155550000',
            test_mode: true,
            agent_config: { prompt: 'You are the front desk.', first_message: 'Hello.' },
            test_persona: { script: ['Goodbye.'], pause_ms: 300 },
          },
        });
      // Two at once on each instance.
      const first = await Promise.all([post(t), post(b), post(t), post(b)]);
      expect(first.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
      for (const app of [t, b]) {
        const refused = await post(app);
        expect(refused.statusCode).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(refused.json<{ error: { type: string; message: string; request_id: string } }>().error).toMatchObject({
          type: 'rate_limited',
          message: expect.stringMatching(/At most 4 test calls with test_persona/),
          request_id: refused.headers['request-id'],
        });
      }
      // A test call without a persona is not counted, nor is another tenant's persona call.
      const plain = await b.asTenant(busy.api_key, {
        method: 'POST',
        url: '/v1/calls',
        payload: { to: '+14155550102', from: '+14155550000', test_mode: true, agent_config: { prompt: 'Hi.' } },
      });
      expect(plain.statusCode).toBe(201);

      // Once one has ended, one more may run.
      const ids = first.map((r) => r.json<{ session_id: string }>().session_id);
      const ended = async (id: string) => {
        const s = (await t.asTenant(busy.api_key, { method: 'GET', url: `/v1/sessions/${id}` })).json<Session>();
        return s.status !== 'queued' && s.status !== 'in_progress';
      };
      await eventually(
        async () => {
          const done = await Promise.all(ids.map(ended));
          expect(done.some(Boolean)).toBe(true);
        },
        90_000,
        500,
      );
      const again = await post(t);
      expect(again.statusCode).toBe(201);
      ids.push(again.json<{ session_id: string }>().session_id);
      // All of them end (none is left running when the instances stop).
      await eventually(
        async () => {
          const done = await Promise.all(ids.map(ended));
          expect(done.every(Boolean)).toBe(true);
        },
        110_000,
        1_000,
      );
    } finally {
      await b.close();
    }
  }, 300_000);
});

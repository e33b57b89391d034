/**
 * The API side of the agent that talks, on the whole application and a real database:
 * - `POST /v1/tool_secret/rotate`: a `whsec_` secret of 32 bytes, shown once (a replay of its
 *   Idempotency-Key is a 409 without it, and rotates nothing), stored sealed (the row does not hold
 *   it in clear), in no event, replaced at once by the next rotation (decision 119), per tenant;
 * - a room's session that received the conversation's signals (a turn at seq 1000, turn metrics)
 *   still ends and gets its recording from the room (decision 120), with the turn's `t` to the
 *   millisecond and `metrics` (turns and voice-to-voice percentiles) in GET /v1/sessions/{id};
 * - a session with no measured turn shows empty metrics with null percentiles (decision 118).
 */
import { CommandBus } from '@nestjs/cqrs';
import { ToolSecrets } from '../../../src/conversations/application/tool-secrets';
import { RoomAction } from '../../../src/rooms/application/room.commands';
import { SessionActionCommand } from '../../../src/sessions/index';
import type { MediaSignal } from '../../../src/sessions/domain/media-signal';
import { CreatedTenant, startTestApp, TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';

jest.setTimeout(90_000);

let app: TestApp;
let tenant: CreatedTenant;

beforeAll(async () => {
  app = await startTestApp({ env: { SIM_TIME_SCALE: '0.01' } });
  tenant = await app.createTenant();
});
afterAll(async () => {
  await app?.close();
});

const rotate = (apiKey: string, key?: string) =>
  app.asTenant(apiKey, {
    method: 'POST',
    url: '/v1/tool_secret/rotate',
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });

describe('POST /v1/tool_secret/rotate', () => {
  it('needs the tenant’s API key', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/tool_secret/rotate' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: { type: 'authentication' } });
  });

  it('answers a new secret once, stores it sealed, and the next rotation replaces it', async () => {
    const secrets = app.app.get(ToolSecrets);
    expect(await secrets.secretOf(tenant.tenant_id)).toBeNull();
    const first = await rotate(tenant.api_key);
    expect(first.statusCode).toBe(200);
    const { secret } = first.json<{ secret: string }>();
    expect(Object.keys(first.json())).toEqual(['secret']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(await secrets.secretOf(tenant.tenant_id)).toBe(secret);

    // Sealed at rest: the row holds neither the secret nor its key material in clear.
    const { rows } = await app.db.pool.query<Record<string, unknown>>(
      'SELECT * FROM tool_secrets WHERE tenant_id = $1',
      [tenant.tenant_id],
    );
    expect(rows).toHaveLength(1);
    const row = JSON.stringify(rows[0]);
    expect(row).not.toContain(secret.slice('whsec_'.length, 30));
    expect(String(rows[0]?.secret_sealed)).toMatch(/^v1:/);
    // Never in an event, nor in what the idempotency layer keeps.
    const inEvents = await app.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE data::text LIKE $1 OR metadata::text LIKE $1`,
      [`%${secret.slice(6, 30)}%`],
    );
    expect(inEvents.rows[0]?.n).toBe(0);

    const second = await rotate(tenant.api_key);
    const next = second.json<{ secret: string }>().secret;
    expect(next).not.toBe(secret);
    // No grace: the previous secret signs nothing from now on.
    expect(await secrets.secretOf(tenant.tenant_id)).toBe(next);
  });

  it('is shown once: a replay of the Idempotency-Key is a 409 without it, and rotates nothing', async () => {
    const other = await app.createTenant();
    const key = 'rotate-tool-secret-1';
    const first = await rotate(other.api_key, key);
    expect(first.statusCode).toBe(200);
    const { secret } = first.json<{ secret: string }>();
    const replay = await rotate(other.api_key, key);
    expect(replay.statusCode).toBe(409);
    expect(replay.body).not.toContain(secret.slice(6));
    expect(replay.json()).toMatchObject({ error: { type: 'conflict', message: expect.stringMatching(/shown once/) } });
    expect(await app.app.get(ToolSecrets).secretOf(other.tenant_id)).toBe(secret);
    const kept = await app.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM idempotency_keys k WHERE to_jsonb(k)::text LIKE $1`,
      [`%${secret.slice(6, 30)}%`],
    );
    expect(kept.rows[0]?.n).toBe(0);
    // Each tenant its own.
    expect(await app.app.get(ToolSecrets).secretOf(tenant.tenant_id)).not.toBe(secret);
  });
});

interface SessionBody {
  status: string;
  transcript: { role: string; content?: string; t?: number }[];
  recording: { recording_id: string } | null;
  metrics: { turns: Record<string, unknown>[]; voice_to_voice_ms: { p50: number | null; p95: number | null } };
}

const metricsOf = (t: number, v2v: number, interrupted = false) => ({
  kind: 'turn_metrics' as const,
  t,
  user_speech_end_ms: Math.round(t * 1000) - v2v,
  agent_audio_start_ms: Math.round(t * 1000),
  voice_to_voice_ms: v2v,
  stt_ms: 120,
  llm_first_token_ms: 30,
  tts_first_audio_ms: 90,
  interrupted,
});

describe('a room’s session with the conversation’s signals', () => {
  it('ends and gets its recording after a turn at seq 1000; shows the turn to the ms and its metrics', async () => {
    const commands = app.app.get(CommandBus);
    const made = await app.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/rooms',
      payload: { agent_config: { prompt: 'Talk.' } },
    });
    expect(made.statusCode).toBe(201);
    const roomId = made.json<{ room_id: string }>().room_id;
    await commands.execute(new RoomAction(tenant.tenant_id, roomId, { type: 'join' }));
    const sessionId = await eventually(async () => {
      const room = await app.asTenant(tenant.api_key, { method: 'GET', url: `/v1/rooms/${roomId}` });
      const id = room.json<{ session_id: string | null }>().session_id;
      if (!id) return false;
      const s = await app.asTenant(tenant.api_key, { method: 'GET', url: `/v1/sessions/${id}` });
      return s.statusCode === 200 && s.json<SessionBody>().status === 'in_progress' ? id : false;
    }, 30_000);
    const signal = (seq: number, s: MediaSignal) =>
      commands.execute(new SessionActionCommand(tenant.tenant_id, sessionId, { type: 'signal', seq, signal: s }));
    await signal(1000, { kind: 'turn', role: 'user', content: 'Hello there.', t: 1.23456 });
    await signal(1001, { kind: 'turn', role: 'agent', content: 'I heard: hello there.', t: 2.1 });
    await signal(1002, metricsOf(2.1, 900));
    await signal(1003, metricsOf(4.75, 400, true));

    await commands.execute(new RoomAction(tenant.tenant_id, roomId, { type: 'complete', reason: 'hangup' }));
    await commands.execute(
      new RoomAction(tenant.tenant_id, roomId, {
        type: 'record',
        recordingId: 'rec_0123456789abcdefghij',
        durationSeconds: 6,
      }),
    );
    const session = await eventually(async () => {
      const s = await app.asTenant(tenant.api_key, { method: 'GET', url: `/v1/sessions/${sessionId}` });
      const body = s.json<SessionBody>();
      return body.status === 'completed' && body.recording !== null && body.metrics.turns.length === 2 ? body : false;
    }, 30_000);
    expect(session.recording?.recording_id).toBe('rec_0123456789abcdefghij');
    expect(session.transcript).toEqual([
      { role: 'user', content: 'Hello there.', t: 1.235 },
      { role: 'agent', content: 'I heard: hello there.', t: 2.1 },
    ]);
    expect(session.metrics).toEqual({
      turns: [
        {
          t: 2.1,
          user_speech_end_ms: 1200,
          agent_audio_start_ms: 2100,
          voice_to_voice_ms: 900,
          stt_ms: 120,
          llm_first_token_ms: 30,
          tts_first_audio_ms: 90,
          interrupted: false,
        },
        expect.objectContaining({ t: 4.75, voice_to_voice_ms: 400, interrupted: true }),
      ],
      voice_to_voice_ms: { p50: 400, p95: 900 },
    });
    // The room's end and recording took the top of the seq range.
    const applied = await app.db.pool.query<{ seq: number; kind: string }>(
      `SELECT (data->>'seq')::bigint AS seq, data->>'kind' AS kind FROM events
        WHERE stream_id = $1 AND type = 'session.signal_applied' ORDER BY global_position`,
      [`session-${sessionId}`],
    );
    expect(applied.rows.map((r) => [Number(r.seq), r.kind])).toEqual([
      [1000, 'turn'],
      [1001, 'turn'],
      [1002, 'turn_metrics'],
      [1003, 'turn_metrics'],
      [2_000_000_000, 'hangup'],
      [2_000_000_001, 'recording_ready'],
    ]);
    // A metric after the end is not kept (the call is over).
    await signal(2_000_000_002, metricsOf(9, 100));
    const after = await app.asTenant(tenant.api_key, { method: 'GET', url: `/v1/sessions/${sessionId}` });
    expect(after.json<SessionBody>().metrics.turns).toHaveLength(2);
  });

  it('a session with no measured turn shows empty metrics with null percentiles', async () => {
    const res = await app.asTenant(tenant.api_key, {
      method: 'POST',
      url: '/v1/calls',
      payload: { to: '+14155550101', from: '+14155550000', test_mode: true, agent_config: { prompt: 'Hi.' } },
    });
    expect(res.json<SessionBody>().metrics).toEqual({ turns: [], voice_to_voice_ms: { p50: null, p95: null } });
    const id = res.json<{ session_id: string }>().session_id;
    await eventually(async () => {
      const s = await app.asTenant(tenant.api_key, { method: 'GET', url: `/v1/sessions/${id}` });
      return s.json<SessionBody>().status === 'no_answer';
    }, 30_000);
    const s = await app.asTenant(tenant.api_key, { method: 'GET', url: `/v1/sessions/${id}` });
    expect(s.json<SessionBody>().metrics).toEqual({ turns: [], voice_to_voice_ms: { p50: null, p95: null } });
  });
});

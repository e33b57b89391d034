/**
 * Recording links end to end (the real service process): the file is served only through an
 * expiring signed link (docs/calls-and-test-pool.md "Recording links"). The URL derived from a session
 * id, an unsigned or tampered link is a 403, a genuine link past its expiry a 410, and the session's
 * owner (nobody else) renews it with GET /v1/sessions/{id}/recording. The links are checked against
 * the documented format, computed here independently with RECORDING_URL_SECRET.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import {
  CallsService,
  placeCall,
  readWavHeader,
  SessionBody,
  sessionEvents,
  startCallsService,
} from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { killAllServices } from '../../support/process';
import { createTenant, Envelope, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(120_000);

const SECRET = 'recording-links-e2e-secret-0123456789abcdef';
const TTL_SECONDS = 3600;

let h: CallsService;
let owner: TenantInfo;
let other: TenantInfo;
let call: SessionBody;
let recording: Record<string, unknown>;
let wav: Buffer;

const baseUrl = () => h.svc.baseUrl;

/** The documented signature: base64url HMAC-SHA256 of `id \n expires`, keyed with HKDF(secret). */
function sign(recordingId: string, expires: number | string): string {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(SECRET, 'utf8'), '', 'recording-links/v1/signature', 32));
  return createHmac('sha256', key).update(`${recordingId}\n${expires}`).digest('base64url');
}

function linkOf(recordingId: string, expires: number | string, signature: string): string {
  return `${baseUrl()}/recordings/${recordingId}.wav?expires=${expires}&signature=${signature}`;
}

async function get(url: string, init: RequestInit = {}) {
  const res = await fetch(url, init);
  const buf = Buffer.from(await res.arrayBuffer());
  let json: any;
  try {
    json = JSON.parse(buf.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, buf, json };
}

async function recordedCall(tenant: TenantInfo, to: string, last: string): Promise<[SessionBody, Envelope[]]> {
  const body = await placeCall(h.call, tenant.api_key, to, { testMode: true });
  const events = await eventually(
    async () => {
      const evs = await sessionEvents(h.call, tenant.api_key, body.session_id);
      if (!evs.some((e) => e.type === last)) throw new Error(`no ${last} yet: ${evs.map((e) => e.type).join(', ')}`);
      return evs;
    },
    30_000,
    100,
  );
  return [body, events];
}

beforeAll(async () => {
  h = await startCallsService({
    SIM_TIME_SCALE: '0.01',
    RECORDING_PURGE_GRACE: '1s',
    RECORDING_URL_SECRET: SECRET,
    RECORDING_URL_TTL: `${TTL_SECONDS}s`,
  });
  owner = await createTenant(h.call, h.svc.adminToken, 'Recording Owner');
  other = await createTenant(h.call, h.svc.adminToken, 'Someone Else');
  const [body, events] = await recordedCall(owner, '+14155550100', 'session.recording_completed');
  call = body;
  recording = events.find((e) => e.type === 'session.recording_completed')!.data;
});

afterAll(async () => {
  await h?.destroy();
  await killAllServices();
});

describe('the link in session.recording_completed', () => {
  it('is a signed link that expires after RECORDING_URL_TTL, to a recording id not derived from the session id', async () => {
    const id = recording.recording_id as string;
    expect(id).toMatch(/^rec_[a-z0-9]{24}$/);
    expect(id).not.toContain(call.session_id.slice('ses_'.length));
    const url = new URL(recording.recording_url as string);
    expect(`${url.origin}${url.pathname}`).toBe(`${baseUrl()}/recordings/${id}.wav`);
    const expires = Number(url.searchParams.get('expires'));
    const events = await sessionEvents(h.call, owner.api_key, call.session_id);
    const emitted = Date.parse(events.find((e) => e.type === 'session.recording_completed')!.created_at);
    expect(Math.abs(expires * 1000 - (emitted + TTL_SECONDS * 1000))).toBeLessThan(2000);
    expect(url.searchParams.get('signature')).toBe(sign(id, expires));
  });

  it('serves the bytes of a real dual-channel WAV of the call length, to anyone holding it, never cached', async () => {
    const res = await get(recording.recording_url as string);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^audio\/(wav|x-wav|wave)/);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const header = readWavHeader(res.buf);
    expect(header).toMatchObject({ riff: 'RIFF', wave: 'WAVE', format: 1, channels: 2, bitsPerSample: 16 });
    expect(header.seconds).toBe(recording.duration_seconds);
    expect(res.buf.length).toBe(44 + header.dataSize);
    wav = res.buf;
  });
});

describe('links that are refused', () => {
  const expectError = (res: { status: number; json: any }, status: number, type: string) => {
    expect(res.status).toBe(status);
    expect(res.json).toEqual({
      error: { type, message: expect.stringContaining('/recording'), request_id: expect.any(String) },
    });
  };

  it('the unsigned address, and the one derived from the session id as before, are a 403', async () => {
    const id = recording.recording_id as string;
    expectError(await get(`${baseUrl()}/recordings/${id}.wav`), 403, 'forbidden');
    const derived = `rec_${call.session_id.slice('ses_'.length)}`;
    expectError(await get(`${baseUrl()}/recordings/${derived}.wav`), 403, 'forbidden');
    // Even correctly signed, the derived id names nothing.
    const future = Math.floor(Date.now() / 1000) + 600;
    const signedDerived = await get(linkOf(derived, future, sign(derived, future)));
    expect(signedDerived.status).toBe(404);
    expect(signedDerived.json.error.type).toBe('not_found');
  });

  it('a tampered signature, a moved expiry, half a link or a signature borrowed from another recording is a 403', async () => {
    const url = new URL(recording.recording_url as string);
    const id = recording.recording_id as string;
    const expires = url.searchParams.get('expires')!;
    const sig = url.searchParams.get('signature')!;
    const flipped = `${sig.slice(0, 5)}${sig[5] === 'A' ? 'B' : 'A'}${sig.slice(6)}`;
    const [, others] = await recordedCall(owner, '+14155550108', 'session.recording_completed');
    const otherRec = others.find((e) => e.type === 'session.recording_completed')!.data;
    const otherSig = new URL(otherRec.recording_url as string).searchParams.get('signature')!;
    for (const bad of [
      linkOf(id, expires, flipped),
      linkOf(id, Number(expires) + 86_400, sig),
      linkOf(id, expires, sig.slice(0, 42)),
      linkOf(id, expires, otherSig),
      `${baseUrl()}/recordings/${id}.wav?expires=${expires}`,
      `${baseUrl()}/recordings/${id}.wav?signature=${sig}`,
      `${linkOf(id, expires, sig)}&signature=${sig}`,
    ]) {
      const res = await get(bad);
      expect({ bad, status: res.status }).toEqual({ bad, status: 403 });
      expectError(res, 403, 'forbidden');
    }
  });

  it('a genuine link past its expiry is a 410; a forged expired one stays a 403', async () => {
    const id = recording.recording_id as string;
    const past = Math.floor(Date.now() / 1000) - 1;
    expectError(await get(linkOf(id, past, sign(id, past))), 410, 'gone');
    expectError(await get(linkOf(id, past, sign(id, past + 1))), 403, 'forbidden');
  });
});

describe('GET /v1/sessions/{session_id}/recording renews the link', () => {
  const renew = (sessionId: string, token?: string) =>
    fetch(`${baseUrl()}/v1/sessions/${sessionId}/recording`, {
      redirect: 'manual',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  it('answers the owner with a 302 to a fresh signed link (also in the body) that serves the same bytes', async () => {
    const res = await renew(call.session_id, owner.api_key);
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { recording_id: string; recording_url: string; expires_at: string };
    const location = res.headers.get('location')!;
    expect(body).toEqual({
      recording_id: recording.recording_id,
      recording_url: location,
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/),
    });
    const url = new URL(location);
    const expires = Number(url.searchParams.get('expires'));
    expect(new Date(expires * 1000).toISOString()).toBe(body.expires_at);
    expect(Math.abs(expires * 1000 - (Date.now() + TTL_SECONDS * 1000))).toBeLessThan(5000);
    expect(url.searchParams.get('signature')).toBe(sign(body.recording_id, expires));
    const file = await get(location);
    expect(file.status).toBe(200);
    expect(file.buf.equals(wav)).toBe(true);
    // Following the redirect directly (curl -L) gets the file too.
    const followed = await get(`${baseUrl()}/v1/sessions/${call.session_id}/recording`, {
      headers: { authorization: `Bearer ${owner.api_key}` },
    });
    expect(followed.status).toBe(200);
    expect(followed.buf.equals(wav)).toBe(true);
  });

  it('GET /v1/sessions/{id} carries a fresh working link too', async () => {
    const res = await h.call('GET', `/v1/sessions/${call.session_id}`, { token: owner.api_key });
    expect(res.body.recording).toEqual({
      recording_id: recording.recording_id,
      status: 'available',
      recording_url: expect.stringContaining(`/recordings/${recording.recording_id as string}.wav?expires=`),
    });
    const file = await get(res.body.recording.recording_url);
    expect(file.status).toBe(200);
    expect(file.buf.equals(wav)).toBe(true);
  });

  it("is a 404 for another tenant's session and a 401 without the API key", async () => {
    const res = await renew(call.session_id, other.api_key);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('not_found');
    expect(res.headers.get('location')).toBeNull();
    const anonymous = await renew(call.session_id);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('location')).toBeNull();
    expect((await renew('ses_doesnotexist0000000000', owner.api_key)).status).toBe(404);
  });

  it('is a 404 for a session without a recording, and once the recording is purged', async () => {
    const [noRecording] = await recordedCall(owner, '+14155550107', 'session.ended');
    expect((await renew(noRecording.session_id, owner.api_key)).status).toBe(404);

    const [optOut, events] = await recordedCall(owner, '+14155550106', 'session.opt_out_recording_purged');
    const link = events.find((e) => e.type === 'session.recording_completed')!.data.recording_url as string;
    const purged = await renew(optOut.session_id, owner.api_key);
    expect(purged.status).toBe(404);
    expect(((await purged.json()) as { error: { type: string } }).error.type).toBe('not_found');
    expect((await get(link)).status).toBe(404);
  });
});

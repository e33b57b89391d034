/**
 * Voice uploads racing one another under one Idempotency-Key, and many at once, against the service
 * as `node dist/main.js` (docs/voices.md "Bounds and quotas"):
 * - a voice id already recorded (the key released after a 5xx or expired) is a 409, and neither
 *   overwrites nor deletes the recorded voice's samples, nor stores files for a deleted one;
 * - the key's lock is renewed while a slow upload runs, so a retry under the same key gets the
 *   in-progress 409 instead of running beside it (IDEMPOTENCY_LOCK_MS made short here);
 * - concurrent uploads hold no database connection idle in a transaction while they are stored, and
 *   one process takes at most VOICE_UPLOADS_IN_FLIGHT at once (a 429 beyond).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { basename } from 'node:path';
import { AudioFixtures } from '../../support/audio-fixtures';
import { CallsService, startCallsService } from '../../support/calls-harness';
import { killAllServices } from '../../support/process';
import { createTenant, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(180_000);

const LOCK_MS = 1_000;
const IN_FLIGHT = 8;
let h: CallsService;
let tenant: TenantInfo;
const audio = new AudioFixtures();

beforeAll(async () => {
  h = await startCallsService({ IDEMPOTENCY_LOCK_MS: String(LOCK_MS), VOICE_UPLOADS_IN_FLIGHT: String(IN_FLIGHT) });
  tenant = await createTenant(h.call, h.svc.adminToken, 'Upload Races');
});

afterAll(async () => {
  await h?.destroy();
  await killAllServices();
  audio.remove();
});

/** A multipart/form-data body of a name and WAV files. */
function form(name: string, files: string[]): { body: Buffer; type: string } {
  const boundary = `----vap${randomUUID().replace(/-/g, '')}`;
  const chunks = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n`)];
  for (const file of files)
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="samples"; filename="${basename(file)}"\r\n` +
          'Content-Type: audio/wav\r\n\r\n',
      ),
      readFileSync(file),
      Buffer.from('\r\n'),
    );
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * POSTs the form; the body's first half is sent at once, the rest after `pauseMs` (a slow client).
 * `sent` resolves once the first half is written.
 */
function upload(
  apiKey: string,
  key: string | null,
  sent: { body: Buffer; type: string },
  pauseMs = 0,
): { answer: Promise<Answer>; started: Promise<void> } {
  let started!: () => void;
  const startedP = new Promise<void>((r) => (started = r));
  const answer = new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(`${h.svc.baseUrl}/v1/voice_clones`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': sent.type,
        'content-length': String(sent.body.length),
        ...(key ? { 'idempotency-key': key } : {}),
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let body: any = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    const half = Math.floor(sent.body.length / 2);
    req.write(sent.body.subarray(0, half), () => started());
    setTimeout(() => req.end(sent.body.subarray(half)), pauseMs);
  });
  return { answer, started: startedP };
}

async function blobs(prefix: string): Promise<Map<string, string>> {
  const { rows } = await h.db.pool.query<{ key: string; sha: string }>(
    `SELECT key, content_id AS sha FROM blobs WHERE starts_with(key, $1) ORDER BY key`,
    [prefix],
  );
  return new Map(rows.map((r) => [r.key, r.sha]));
}

async function uploadedEvents(voiceId: string): Promise<number> {
  const { rows } = await h.db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM events WHERE type = 'voice_clone.uploaded' AND data->>'voice_id' = $1`,
    [voiceId],
  );
  return rows[0]!.n;
}

/** What a 5xx, or the end of the 24-hour window, does to a key: it is gone, and the same key runs again. */
async function forgetKey(key: string): Promise<void> {
  await h.db.pool.query('DELETE FROM idempotency_keys WHERE key = $1', [key]);
}

describe('an upload under a voice id that already has one', () => {
  it('is a 409 and leaves the recorded voice’s samples as they were', async () => {
    const key = randomUUID();
    const first = await upload(tenant.api_key, key, form('Kept', [audio.tone('wav', { seconds: 2 })])).answer;
    expect(first.status).toBe(202);
    const voiceId = first.body.voice_id as string;
    const stored = await blobs(`voices/${voiceId}/`);
    expect(stored.size).toBe(1);

    await forgetKey(key);
    const again = await upload(tenant.api_key, key, form('Kept', [audio.tone('wav', { seconds: 3 })])).answer;
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ type: 'conflict', request_id: expect.any(String) });
    expect(again.body.error.message).toContain(voiceId);
    expect(await blobs(`voices/${voiceId}/`)).toEqual(stored);
    expect(await uploadedEvents(voiceId)).toBe(1);
  });

  it('is a 409 for a deleted voice, and stores nothing for it', async () => {
    const key = randomUUID();
    const first = await upload(tenant.api_key, key, form('Gone', [audio.tone('wav', { seconds: 2 })])).answer;
    expect(first.status).toBe(202);
    const voiceId = first.body.voice_id as string;
    expect((await h.call('DELETE', `/v1/voice_clones/${voiceId}`, { token: tenant.api_key })).status).toBe(200);
    expect((await blobs(`voices/${voiceId}/`)).size).toBe(0);

    await forgetKey(key);
    const again = await upload(tenant.api_key, key, form('Gone', [audio.tone('wav', { seconds: 2 })])).answer;
    expect(again.status).toBe(409);
    expect((await blobs(`voices/${voiceId}/`)).size).toBe(0);
  });
});

describe('the Idempotency-Key lock of a slow upload', () => {
  it('is renewed while the upload runs: a retry under the same key is the in-progress 409, never a second run', async () => {
    const key = randomUUID();
    const sent = form('Slow', [audio.tone('wav', { seconds: 2 })]);
    const slow = upload(tenant.api_key, key, sent, LOCK_MS * 4);
    await slow.started;
    await new Promise((r) => setTimeout(r, LOCK_MS * 2.5)); // well past the lock's first term
    const retry = await upload(tenant.api_key, key, sent).answer;
    expect(retry.status).toBe(409);
    expect(retry.body.error).toMatchObject({ type: 'conflict', param: 'Idempotency-Key' });
    expect(retry.body.error.message).toMatch(/in progress/);
    const first = await slow.answer;
    expect(first.status).toBe(202);
    expect(await uploadedEvents(first.body.voice_id)).toBe(1);
    // Done: the same key now replays the first answer.
    const replay = await upload(tenant.api_key, key, sent).answer;
    expect([replay.status, replay.headers['idempotent-replayed'], replay.body]).toEqual([202, 'true', first.body]);
  });
});

describe('many uploads at once', () => {
  it('hold no connection idle in a quota transaction while they are stored, and release their reservations', async () => {
    const tenants = await Promise.all(
      Array.from({ length: IN_FLIGHT }, (_, i) => createTenant(h.call, h.svc.adminToken, `Concurrent ${i}`)),
    );
    // 3 files of 6.4 MB each (200 s of 16 kHz 16-bit): storing them takes a while.
    const files = [1, 2, 3].map(() => audio.tone('wav', { seconds: 200 }));
    const sent = form('Big', files);
    // Connections idle in a transaction of the quota's (its lock, its usage count, its reservation)
    // open for over a second: the quota's own short transaction is not, however the 8 interleave.
    let idleInTransaction = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await h.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND state LIKE 'idle in transaction%' AND pid <> pg_backend_pid()
             AND (query LIKE '%voice_clone%' OR query LIKE '%pg_advisory_xact_lock%' OR query LIKE '%voice_upload%')
             AND now() - xact_start > interval '1 second'`,
        );
        idleInTransaction = Math.max(idleInTransaction, rows[0]!.n);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const answers = await Promise.all(tenants.map((t) => upload(t.api_key, null, sent).answer));
    sampling = false;
    await sampler;
    expect(answers.map((a) => a.status)).toEqual(tenants.map(() => 202));
    expect(idleInTransaction).toBe(0);
    const { rows } = await h.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM voice_upload_reservations');
    expect(rows[0]!.n).toBe(0); // every reservation released once its upload was recorded
  });

  it(`takes at most ${IN_FLIGHT} at once; one more is a 429 with Retry-After`, async () => {
    const sent = form('Held', [audio.tone('wav', { seconds: 2 })]);
    const held = Array.from({ length: IN_FLIGHT }, () => upload(tenant.api_key, null, sent, 3_000));
    await Promise.all(held.map((u) => u.started));
    // Every held upload admitted (a busy machine may take a while to reach them all): /metrics says so.
    for (let admitted = 0; admitted < IN_FLIGHT; await new Promise((r) => setTimeout(r, 50))) {
      const metrics = await h.call('GET', '/metrics', { token: h.svc.adminToken });
      admitted = Number(/^voice_uploads_in_flight (\d+)/m.exec(metrics.text)?.[1] ?? 0);
    }
    const extra = await upload(tenant.api_key, null, sent).answer;
    expect(extra.status).toBe(429);
    expect(extra.headers['retry-after']).toBeDefined();
    expect(extra.body.error).toMatchObject({ type: 'rate_limited' });
    expect((await Promise.all(held.map((u) => u.answer))).map((a) => a.status)).toEqual(held.map(() => 202));
  });
});

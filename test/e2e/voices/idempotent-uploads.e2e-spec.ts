/**
 * An Idempotency-Key on a multipart upload (POST /v1/voice_clones) against the service as
 * `node dist/main.js` (its audio decoder is an ES module, which the in-process harness cannot load):
 * the parts, file names, types and file contents are the request's fingerprint, the boundary is not
 * (decision 63).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { AudioFixtures } from '../../support/audio-fixtures';
import { CallsService, startCallsService } from '../../support/calls-harness';
import { killAllServices } from '../../support/process';
import { createTenant, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(120_000);

let h: CallsService;
let tenant: TenantInfo;
const audio = new AudioFixtures();

beforeAll(async () => {
  h = await startCallsService({});
  tenant = await createTenant(h.call, h.svc.adminToken, 'Uploads Once');
});

afterAll(async () => {
  await h?.destroy();
  await killAllServices();
  audio.remove();
});

/** A multipart/form-data body by hand, with a boundary of its own each time (as a new FormData would). */
function form(name: string, files: { path: string; filename?: string }[]): { body: Buffer; type: string } {
  const boundary = `----vap${randomUUID().replace(/-/g, '')}`;
  const chunks: Buffer[] = [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n`),
  ];
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="samples"; filename="${file.filename ?? basename(file.path)}"\r\n` +
          'Content-Type: audio/wav\r\n\r\n',
      ),
      readFileSync(file.path),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

async function upload(key: string, sent: { body: Buffer; type: string }) {
  const res = await fetch(`${h.svc.baseUrl}/v1/voice_clones`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.api_key}`, 'idempotency-key': key, 'content-type': sent.type },
    body: sent.body,
  });
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: (await res.json()) as any };
}

async function uploaded(): Promise<number> {
  const { rows } = await h.db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM events WHERE type = 'voice_clone.uploaded' AND metadata->>'tenant_id' = $1`,
    [tenant.tenant_id],
  );
  return rows[0]!.n;
}

it('the same key with the same files is replayed; with another file, file name or name it is a 422', async () => {
  const a = audio.tone('wav', { seconds: 2 });
  const b = audio.tone('wav', { seconds: 2 });
  const key = randomUUID();
  const first = await upload(key, form('Voice', [{ path: a }]));
  expect([first.status, first.body.status]).toEqual([202, 'queued']);
  const before = await uploaded();

  // The same form again, under another boundary: the first answer.
  const again = await upload(key, form('Voice', [{ path: a }]));
  expect(again.status).toBe(202);
  expect(again.replayed).toBe('true');
  expect(again.body).toEqual(first.body);

  // Another file under the same file name, another file name, one file more, another name: 422.
  for (const other of [
    form('Voice', [{ path: b, filename: basename(a) }]),
    form('Voice', [{ path: a, filename: 'other.wav' }]),
    form('Voice', [{ path: a }, { path: b }]),
    form('Other voice', [{ path: a }]),
  ]) {
    const res = await upload(key, other);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ type: 'idempotency_error', param: 'Idempotency-Key' });
  }
  expect(await uploaded()).toBe(before);
});

it('a refused upload keeps no answer under its key: fixed and sent again, it is accepted', async () => {
  const key = randomUUID();
  const garbage = audio.file('garbage.wav', Buffer.from('not audio at all, just text'));
  const refused = await upload(key, form('Voice', [{ path: garbage }]));
  expect(refused.status).toBe(400);
  const fixed = await upload(key, form('Voice', [{ path: audio.tone('wav', { seconds: 2 }) }]));
  expect(fixed.status).toBe(202);
});

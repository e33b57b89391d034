import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { CallsService } from './calls-harness';
import { eventually } from './eventually';
import { REPO_ROOT, TEST_CAPACITY } from './process';

/** A media process under test: the child, and everything it printed so far. */
export interface MediaProcess {
  readonly child: ChildProcess;
  output(): string;
}

/**
 * `node dist/media.js` on the calls service's database and data folder, with `env` added (its SIP
 * and RTP settings), its output kept for diagnostics.
 */
export function startMediaProcess(h: CallsService, env: Record<string, string>): MediaProcess {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'media.js')], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/root',
      DATABASE_URL: h.db.url,
      DATA_DIR: h.dataDir,
      LOG_LEVEL: 'warn',
      ...TEST_CAPACITY,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  return { child, output: () => output };
}

/**
 * After a media process was killed (`kill -9`): every one of `sessionIds` ends `failed` with
 * `media_lost` through the watchdog, no SIP call slot is left held, and a few sweeps later each
 * session still has exactly one terminal event (no `session.ended` from a late hang-up, no second
 * `session.failed`).
 */
export async function expectEachEndedMediaLost(
  h: CallsService,
  apiKey: string,
  sessionIds: string[],
  sweepsMs = 4_000,
): Promise<void> {
  for (const id of sessionIds) {
    const ended = await eventually(
      async () => {
        const s = (await h.call('GET', `/v1/sessions/${id}`, { token: apiKey })).body;
        return s.status === 'failed' ? s : false;
      },
      30_000,
      200,
    );
    expect(ended.end_reason).toBe('media_lost');
  }
  expect((await h.db.pool.query('SELECT 1 FROM sip_call_slots')).rowCount).toBe(0);
  await new Promise((r) => setTimeout(r, sweepsMs));
  for (const id of sessionIds) {
    const { rows } = await h.db.pool.query<{ type: string }>(
      `SELECT type FROM events WHERE stream_id LIKE $1 AND type IN ('session.ended', 'session.failed')
       ORDER BY global_position`,
      [`%${id}%`],
    );
    expect(rows.map((r) => r.type)).toEqual(['session.failed']);
  }
}

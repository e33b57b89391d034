import type { CallsService } from './calls-harness';
import { eventually } from './eventually';

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

/**
 * Events stored in older shapes, written raw to the real event store, read as today's through the
 * owning context's edge (src/kernel/event-edge.ts): the read model gets today's values from the
 * upcaster, not from a default of its own (decision 90).
 */
import { EVENT_STORE, type EventStore } from '../../../src/event-store/event-store.port';
import { newEventId } from '../../../src/kernel/ids';
import { ProjectionsService } from '../../../src/runtime/processing/processors.service';
import { sessionStream } from '../../../src/sessions/index';
import { startTestApp, type TestApp } from '../../support/app';

jest.setTimeout(60_000);

describe('older stored event shapes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a session.placed stored before inbound calls and campaigns reads as outbound, without a contact', async () => {
    const tenant = await t.createTenant();
    const sessionId = `ses_old_${Date.now()}`;
    const store = t.app.get<EventStore>(EVENT_STORE);
    const metadata = { tenant_id: tenant.tenant_id, created_at: '2025-06-01T00:00:00.000Z' };
    // As sessions stored it before `direction` (inbound calls) and the contact identity (campaigns).
    const { position } = await store.append(
      sessionStream(sessionId),
      [
        {
          id: newEventId(),
          type: 'session.placed',
          data: {
            session_id: sessionId,
            to_number: '+14155550100',
            from_number: '+14155550199',
            agent_config: { prompt: 'Hello' },
            voice_id: 'voice_ava',
            test_mode: true,
            campaign_id: null,
            contact_id: null,
            client_reference_id: null,
          },
          metadata,
        },
      ],
      'no_stream',
    );
    expect(await t.app.get(ProjectionsService).waitForProjection('sessions', position)).toBe(true);
    const { rows } = await t.db.pool.query<{ direction: string; email: string | null; first_name: string | null }>(
      'SELECT direction, email, first_name FROM sessions WHERE session_id = $1',
      [sessionId],
    );
    expect(rows).toEqual([{ direction: 'outbound', email: null, first_name: null }]);
    const dead = await t.db.pool.query('SELECT 1 FROM dead_letters WHERE stream_id = $1', [sessionStream(sessionId)]);
    expect(dead.rows).toEqual([]);
  });
});

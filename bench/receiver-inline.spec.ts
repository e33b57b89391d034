import { startInlineReceiver } from './receiver-inline';
import { WebhookReceiver } from './receiver-process';

/** The inline receiver over real HTTP on loopback: what the customer-style rig counts. */
describe('startInlineReceiver', () => {
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    receiver = await startInlineReceiver();
  });

  afterEach(async () => {
    await receiver.close();
  });

  const post = async (body: string, id?: string): Promise<number> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (id) headers['webhook-id'] = id;
    const response = await fetch(`${receiver.url}/hook`, { method: 'POST', headers, body });
    return response.status;
  };
  const envelope = (type: string, createdAt: Date): string =>
    JSON.stringify({ type, created_at: createdAt.toISOString(), data: {} });

  it('counts deliveries by type once per webhook id, duplicates across windows, and takes latency from created_at', async () => {
    expect(receiver.pid).toBe(process.pid);
    const past = new Date(Date.now() - 1_000);
    expect(await post(envelope('session.created', past), 'evt_1')).toBe(204);
    expect(await post(envelope('session.ended', past), 'evt_2')).toBe(204);
    const first = await receiver.snapshot();
    expect(first).toMatchObject({ requests: 2, deliveries: 2, duplicates: 0, unreadable: 0 });
    expect(first.by_type).toEqual({ 'session.created': 1, 'session.ended': 1 });
    expect(first.latency_ms?.p50).toBeGreaterThanOrEqual(1_000);
    expect(first.latency_ms?.max).toBeLessThan(30_000);

    await receiver.reset();
    await post(envelope('session.created', past), 'evt_1');
    const second = await receiver.count();
    expect(second).toMatchObject({ requests: 1, deliveries: 0, duplicates: 1, latency_ms: null });
  });

  it('counts a request without a webhook id as a request only, and an unreadable body as unreadable', async () => {
    await post(envelope('raw', new Date()));
    await post('not json', 'evt_bad');
    await post(JSON.stringify({ type: 'x' }), 'evt_no_date');
    const stats = await receiver.count();
    expect(stats).toMatchObject({ requests: 3, deliveries: 2, unreadable: 2 });
    expect(stats.by_type).toEqual({ x: 1 });
  });

  it('waits until a condition on the counts holds, or answers that it did not', async () => {
    setTimeout(() => void post(envelope('session.recording_completed', new Date()), 'evt_late'), 150);
    const met = await receiver.waitUntil((s) => (s.by_type['session.recording_completed'] ?? 0) >= 1, 5_000);
    expect(met.met).toBe(true);
    const missed = await receiver.waitUntil((s) => s.deliveries >= 5, 300);
    expect(missed).toMatchObject({ met: false, stats: { deliveries: 1 } });
  });
});

/**
 * What an instance loads and says at start (docs/capacity.md): the embedded recognisers' pool
 * (RECOGNIZER_POOL, helper processes with their model loaded) and its capacity on /ready.
 */
import { SPEECH_RECOGNIZER } from '../../../src/conversations/engines/engines';
import { eventually } from '../../support/eventually';
import { startTestApp, type TestApp } from '../../support/app';

jest.setTimeout(60_000);

describe('an instance at start', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RECOGNIZER_POOL: '3', MAX_CONVERSATIONS: '6' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('loads RECOGNIZER_POOL recognisers before any conversation, and says its capacity on /ready', async () => {
    const recognizer = t.app.get<{ helpers: number }>(SPEECH_RECOGNIZER);
    expect(recognizer.helpers).toBe(3);
    // Still there a moment later: loaded, not started and dropped.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(recognizer.helpers).toBe(3);
    const ready = await eventually(async () => {
      const res = await t.inject({ method: 'GET', url: '/ready' });
      return res.statusCode === 200 ? (JSON.parse(res.body) as { conversations: unknown }) : false;
    });
    expect(ready.conversations).toEqual({ active: 0, capacity: 6, admitting: true });
  });
});

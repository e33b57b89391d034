import { Wakeup } from './wakeup';

describe('Wakeup', () => {
  it('sleeps for the given time when nobody wakes it', async () => {
    const w = new Wakeup();
    const started = Date.now();
    await w.sleep(60);
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
  });

  it('is cut short by a wake during the sleep', async () => {
    const w = new Wakeup();
    const started = Date.now();
    setTimeout(() => w.wake(), 10);
    await w.sleep(5000);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('remembers a wake that came before the sleep, until reset', async () => {
    const w = new Wakeup();
    w.wake();
    const started = Date.now();
    await w.sleep(5000);
    expect(Date.now() - started).toBeLessThan(100);
    w.reset();
    const again = Date.now();
    await w.sleep(40);
    expect(Date.now() - again).toBeGreaterThanOrEqual(30);
  });
});

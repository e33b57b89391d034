import { TransportListeners } from './transport-listeners';

describe('TransportListeners', () => {
  it('hands frames to every listener until it unsubscribes, and drops a listener that throws', () => {
    const listeners = new TransportListeners();
    const heard: number[] = [];
    const stop = listeners.onFrame((f) => heard.push(f[0]!));
    let thrown = 0;
    listeners.onFrame(() => {
      thrown++;
      throw new Error('a listener bug');
    });
    listeners.heard(Int16Array.of(1));
    listeners.heard(Int16Array.of(2));
    stop();
    listeners.heard(Int16Array.of(3));
    expect(heard).toEqual([1, 2]);
    expect(thrown).toBe(1);
  });

  it('tells the end once, also to a listener added after it, and hears nothing more', () => {
    const listeners = new TransportListeners();
    const told: string[] = [];
    const heard: number[] = [];
    listeners.onFrame((f) => heard.push(f[0]!));
    listeners.onClosed(() => {
      throw new Error('a listener bug');
    });
    listeners.onClosed(() => told.push('before'));
    listeners.closed();
    listeners.closed();
    listeners.onClosed(() => told.push('after'));
    listeners.heard(Int16Array.of(1));
    expect(told).toEqual(['before', 'after']);
    expect(heard).toEqual([]);
    expect(listeners.isClosed).toBe(true);
  });
});

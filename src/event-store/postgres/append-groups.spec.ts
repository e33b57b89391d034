import { takeGroup } from './append-groups';

const item = (streamId: string, events = 1, tag = ''): { streamId: string; events: unknown[]; tag: string } => ({
  streamId,
  events: Array.from({ length: events }),
  tag: tag || streamId,
});

describe('takeGroup', () => {
  it('takes the whole queue when every stream differs and the cap allows', () => {
    const queue = [item('a'), item('b'), item('c')];
    expect(takeGroup(queue, 500).map((i) => i.tag)).toEqual(['a', 'b', 'c']);
    expect(queue).toEqual([]);
  });

  it('leaves a second append to a stream, and every later one to it, for the next group, in order', () => {
    const queue = [item('a', 1, 'a1'), item('b'), item('a', 1, 'a2'), item('c'), item('a', 1, 'a3')];
    expect(takeGroup(queue, 500).map((i) => i.tag)).toEqual(['a1', 'b', 'c']);
    expect(queue.map((i) => i.tag)).toEqual(['a2', 'a3']);
    expect(takeGroup(queue, 500).map((i) => i.tag)).toEqual(['a2']);
    expect(takeGroup(queue, 500).map((i) => i.tag)).toEqual(['a3']);
    expect(queue).toEqual([]);
  });

  it('stops at the event cap, keeping the rest in order', () => {
    const queue = [item('a', 3), item('b', 3), item('c', 1), item('d', 1)];
    expect(takeGroup(queue, 6).map((i) => i.tag)).toEqual(['a', 'b']);
    expect(queue.map((i) => i.tag)).toEqual(['c', 'd']);
  });

  it('does not let a smaller append overtake one that exceeds the cap', () => {
    const queue = [item('a', 4), item('b', 4), item('c', 1)];
    expect(takeGroup(queue, 6).map((i) => i.tag)).toEqual(['a']);
    expect(queue.map((i) => i.tag)).toEqual(['b', 'c']);
  });

  it('sends an append larger than the cap alone', () => {
    const queue = [item('a', 900), item('b')];
    expect(takeGroup(queue, 500).map((i) => i.tag)).toEqual(['a']);
    expect(queue.map((i) => i.tag)).toEqual(['b']);
  });

  it('keeps a waiting append ahead of appends cut off by the cap', () => {
    const queue = [item('a', 1, 'a1'), item('a', 1, 'a2'), item('b', 2), item('c', 5)];
    expect(takeGroup(queue, 4).map((i) => i.tag)).toEqual(['a1', 'b']);
    expect(queue.map((i) => i.tag)).toEqual(['a2', 'c']);
  });
});

describe('takeGroup with streams in flight', () => {
  it('leaves appends to a busy stream queued, in order', () => {
    const queue = [item('a', 1, 'a1'), item('b'), item('a', 1, 'a2'), item('c')];
    expect(takeGroup(queue, 500, new Set(['a'])).map((i) => i.tag)).toEqual(['b', 'c']);
    expect(queue.map((i) => i.tag)).toEqual(['a1', 'a2']);
  });

  it('takes nothing when every queued stream is busy', () => {
    const queue = [item('a'), item('b')];
    expect(takeGroup(queue, 500, new Set(['a', 'b']))).toEqual([]);
    expect(queue.map((i) => i.tag)).toEqual(['a', 'b']);
  });
});

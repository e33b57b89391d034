/** Which failures count as tries of an event (and can end in a dead letter), and how they are described. */
import { describeFailure, isTransientFailure } from './processor-failures';

const pgError = (code: string, message = 'boom') => Object.assign(new Error(message), { code });

describe('isTransientFailure', () => {
  it.each([
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['a connection class SQLSTATE', pgError('08006')],
    ['a serialization failure', pgError('40001')],
    ['a deadlock', pgError('40P01')],
    ['a statement timeout', pgError('57014')],
    ['an administrator shutdown', pgError('57P01')],
    ['too many connections', pgError('53300')],
    ['a lock not granted', pgError('55P03')],
    ['an idle transaction ended by the server', pgError('25P03')],
  ])('%s is transient: retried without counting a try', (_, err) => {
    expect(isTransientFailure(err)).toBe(true);
  });

  it.each([
    ['an integer out of range', pgError('22003', 'value "3000000000" is out of range for type integer')],
    ['a NOT NULL violation', pgError('23502')],
    ['a unique violation', pgError('23505')],
    ['an aborted transaction (a handler swallowed an error)', pgError('25P02')],
    ['a TypeError in a handler', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['a thrown string', 'nope'],
  ])('%s counts as a try of the event', (_, err) => {
    expect(isTransientFailure(err)).toBe(false);
  });
});

describe('describeFailure', () => {
  it('gives the SQLSTATE and the first line of the message', () => {
    expect(describeFailure(pgError('22003', 'value "3000000000" is out of range for type integer\nDETAIL: x'))).toBe(
      '22003: value "3000000000" is out of range for type integer',
    );
    expect(describeFailure(new Error('plain'))).toBe('plain');
    expect(describeFailure('text')).toBe('text');
  });

  it('is bounded', () => {
    const text = describeFailure(new Error('x'.repeat(10_000)), 100);
    expect(text).toHaveLength(100);
    expect(text.endsWith('…')).toBe(true);
  });
});

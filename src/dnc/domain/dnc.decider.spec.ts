/** Given/when/then on the tenant do-not-call list decider (pure). */
import { fold } from '../../kernel/decider';
import { DomainError } from '../../kernel/result';
import { DncCommand, dncDecider, DncEvent, dncStream } from './dnc.decider';

const NUMBER = '+14155550106';

function given(...events: DncEvent[]) {
  const state = fold(dncDecider, events);
  return { when: (command: DncCommand) => dncDecider.decide(command, state), state };
}

const added = (phone = NUMBER, source: 'api' | 'opt_out' = 'api', session: string | null = null): DncEvent => ({
  type: 'dnc.number_added',
  data: { phone_number: phone, source, session_id: session },
});
const removed = (phone = NUMBER): DncEvent => ({ type: 'dnc.number_removed', data: { phone_number: phone } });

describe('dnc decider', () => {
  it('names one stream per tenant', () => {
    expect(dncStream('ten_1')).toBe('dnc-ten_1');
  });

  it('starts empty', () => {
    expect(dncDecider.initialState().numbers.size).toBe(0);
  });

  it('add on an empty list → dnc.number_added with its source and session', () => {
    expect(given().when({ type: 'add', phoneNumber: NUMBER, source: 'opt_out', sessionId: 'ses_1' })).toEqual([
      { type: 'dnc.number_added', data: { phone_number: NUMBER, source: 'opt_out', session_id: 'ses_1' } },
    ]);
    expect(given().when({ type: 'add', phoneNumber: NUMBER, source: 'api', sessionId: null })).toEqual([added()]);
  });

  it('adding a number already listed decides nothing (idempotent, whatever the source)', () => {
    const g = given(added());
    expect(g.when({ type: 'add', phoneNumber: NUMBER, source: 'api', sessionId: null })).toEqual([]);
    expect(g.when({ type: 'add', phoneNumber: NUMBER, source: 'opt_out', sessionId: 'ses_2' })).toEqual([]);
  });

  it('adding another number still works', () => {
    expect(given(added()).when({ type: 'add', phoneNumber: '+14155550100', source: 'api', sessionId: null })).toEqual([
      added('+14155550100'),
    ]);
  });

  it('remove of a listed number → dnc.number_removed', () => {
    expect(given(added()).when({ type: 'remove', phoneNumber: NUMBER })).toEqual([removed()]);
  });

  it('remove of a number not listed → not_found on phone_number', () => {
    const attempt = () => given(added('+14155550100')).when({ type: 'remove', phoneNumber: NUMBER });
    expect(attempt).toThrow(DomainError);
    expect(attempt).toThrow(expect.objectContaining({ code: 'not_found', param: 'phone_number' }));
  });

  it('remove twice → the second is not_found', () => {
    expect(() => given(added(), removed()).when({ type: 'remove', phoneNumber: NUMBER })).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
  });

  it('a removed number can be added again', () => {
    const g = given(added(), removed());
    expect(g.state.numbers.has(NUMBER)).toBe(false);
    expect(g.when({ type: 'add', phoneNumber: NUMBER, source: 'opt_out', sessionId: 'ses_3' })).toEqual([
      added(NUMBER, 'opt_out', 'ses_3'),
    ]);
  });

  it('evolve does not mutate the previous state', () => {
    const before = dncDecider.initialState();
    const after = dncDecider.evolve(before, added());
    expect(before.numbers.size).toBe(0);
    expect([...after.numbers]).toEqual([NUMBER]);
  });
});

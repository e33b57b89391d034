/** Given/when/then on the tenant do-not-call list decider (pure). */
import { DeciderSpecification } from '../../../test/support/decider-specification';
import { fold } from '../../kernel/decider';
import { dncDecider, DncEvent, dncStream } from './dnc.decider';

const NUMBER = '+14155550106';

const spec = DeciderSpecification.for(dncDecider);

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
    spec
      .given([])
      .when({ type: 'add', phoneNumber: NUMBER, source: 'opt_out', sessionId: 'ses_1' })
      .then([{ type: 'dnc.number_added', data: { phone_number: NUMBER, source: 'opt_out', session_id: 'ses_1' } }]);
    spec.given([]).when({ type: 'add', phoneNumber: NUMBER, source: 'api', sessionId: null }).then([added()]);
  });

  it('adding a number already listed decides nothing (idempotent, whatever the source)', () => {
    spec
      .given([added()])
      .when({ type: 'add', phoneNumber: NUMBER, source: 'api', sessionId: null })
      .thenNothingHappened();
    spec
      .given([added()])
      .when({ type: 'add', phoneNumber: NUMBER, source: 'opt_out', sessionId: 'ses_2' })
      .thenNothingHappened();
  });

  it('adding another number still works', () => {
    spec
      .given([added()])
      .when({ type: 'add', phoneNumber: '+14155550100', source: 'api', sessionId: null })
      .then([added('+14155550100')]);
  });

  it('remove of a listed number → dnc.number_removed', () => {
    spec.given([added()]).when({ type: 'remove', phoneNumber: NUMBER }).then([removed()]);
  });

  it('remove of a number not listed → not_found on phone_number', () => {
    spec
      .given([added('+14155550100')])
      .when({ type: 'remove', phoneNumber: NUMBER })
      .thenThrows({ code: 'not_found', param: 'phone_number' });
  });

  it('remove twice → the second is not_found', () => {
    spec.given([added(), removed()]).when({ type: 'remove', phoneNumber: NUMBER }).thenThrows('not_found');
  });

  it('a removed number can be added again', () => {
    expect(fold(dncDecider, [added(), removed()]).numbers.has(NUMBER)).toBe(false);
    spec
      .given([added(), removed()])
      .when({ type: 'add', phoneNumber: NUMBER, source: 'opt_out', sessionId: 'ses_3' })
      .then([added(NUMBER, 'opt_out', 'ses_3')]);
  });

  it('evolve does not mutate the previous state', () => {
    const before = dncDecider.initialState();
    const after = dncDecider.evolve(before, added());
    expect(before.numbers.size).toBe(0);
    expect([...after.numbers]).toEqual([NUMBER]);
  });
});

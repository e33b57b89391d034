/** The decider specification must fail whenever the decider does something other than what the test says. */
import type { Decider, DomainEvent } from '../../src/kernel/decider';
import { defineEdge } from '../../src/kernel/event-edge';
import { DomainError } from '../../src/kernel/result';
import { DeciderSpecification } from '../support/decider-specification';

type SwitchEvent =
  DomainEvent<'switched_on', { by: string; note?: string }> | DomainEvent<'switched_off', { by: string }>;
type SwitchCommand =
  | { type: 'switch_on'; by: string; note?: string }
  | { type: 'switch_off'; by: string }
  | { type: 'toggle_twice'; by: string }
  | { type: 'break' };

/** A light switch: on is idempotent, off when already off is a conflict, `break` is a bug. */
const switchDecider: Decider<SwitchCommand, { on: boolean }, SwitchEvent> = {
  edge: defineEdge<SwitchEvent>({ switched_on: { by: true }, switched_off: { by: true } }),
  initialState: () => ({ on: false }),
  evolve: (_state, event) => ({ on: event.type === 'switched_on' }),
  decide(command, state) {
    switch (command.type) {
      case 'switch_on':
        if (state.on) return [];
        return [{ type: 'switched_on', data: { by: command.by, ...(command.note ? { note: command.note } : {}) } }];
      case 'switch_off':
        if (!state.on) throw new DomainError('conflict', 'The light is already off.', 'state');
        return [{ type: 'switched_off', data: { by: command.by } }];
      case 'toggle_twice':
        return state.on
          ? [
              { type: 'switched_off', data: { by: command.by } },
              { type: 'switched_on', data: { by: command.by } },
            ]
          : [
              { type: 'switched_on', data: { by: command.by } },
              { type: 'switched_off', data: { by: command.by } },
            ];
      case 'break':
        throw new TypeError('state.lamp is undefined');
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },
};

const spec = DeciderSpecification.for(switchDecider);
const on: SwitchEvent = { type: 'switched_on', data: { by: 'ann' } };
const off: SwitchEvent = { type: 'switched_off', data: { by: 'bob' } };

describe('DeciderSpecification', () => {
  describe('then', () => {
    it('passes when decide returns exactly the expected events, given the folded history', () => {
      spec
        .given([])
        .when({ type: 'switch_on', by: 'ann' })
        .then([{ type: 'switched_on', data: { by: 'ann' } }]);
      spec.given([on]).when({ type: 'switch_off', by: 'bob' }).then([off]);
      spec.given([on, off]).when({ type: 'switch_off', by: 'bob' }).thenThrows('conflict');
      spec
        .given([on, off, on])
        .when({ type: 'toggle_twice', by: 'cy' })
        .then([
          { type: 'switched_off', data: { by: 'cy' } },
          { type: 'switched_on', data: { by: 'cy' } },
        ]);
    });

    it('takes a single given event and a single expected event', () => {
      spec.given(on).when({ type: 'switch_off', by: 'bob' }).then(off);
    });

    it('fails, with a diff of the events, when the decider decides other data', () => {
      expect(() =>
        spec
          .given([on])
          .when({ type: 'switch_off', by: 'bob' })
          .then([{ ...off, data: { by: 'eve' } }]),
      ).toThrow(/the decided events differ from the expected ones[\s\S]*- Expected[\s\S]*"eve"[\s\S]*"bob"/);
    });

    it('fails when the decider decides another type, more events, fewer events or none', () => {
      const when = spec.given([]).when({ type: 'switch_on', by: 'ann' });
      expect(() => when.then([{ type: 'switched_off', data: { by: 'ann' } }])).toThrow(/differ/);
      expect(() => when.then([on, on])).toThrow(/differ/);
      expect(() => when.then([])).toThrow(/differ/);
      expect(() => spec.given([on]).when({ type: 'switch_on', by: 'ann' }).then([on])).toThrow(/differ/);
      expect(() =>
        spec
          .given([])
          .when({ type: 'toggle_twice', by: 'cy' })
          .then([{ type: 'switched_on', data: { by: 'cy' } }]),
      ).toThrow(/differ/);
    });

    it('fails when the events come in another order', () => {
      expect(() =>
        spec
          .given([])
          .when({ type: 'toggle_twice', by: 'cy' })
          .then([
            { type: 'switched_off', data: { by: 'cy' } },
            { type: 'switched_on', data: { by: 'cy' } },
          ]),
      ).toThrow(/differ/);
    });

    it('is strict: `note: undefined` is not the same as no note at all', () => {
      const when = spec.given([]).when({ type: 'switch_on', by: 'ann' });
      expect(() => when.then([{ type: 'switched_on', data: { by: 'ann', note: undefined } }])).toThrow(/differ/);
      expect(() => when.then([{ type: 'switched_on', data: { by: 'ann', note: 'night' } }])).toThrow(/differ/);
      spec
        .given([])
        .when({ type: 'switch_on', by: 'ann', note: 'night' })
        .then([{ type: 'switched_on', data: { by: 'ann', note: 'night' } }]);
    });

    it('fails, naming the error, when decide throws', () => {
      expect(() => spec.given([]).when({ type: 'switch_off', by: 'bob' }).then([off])).toThrow(
        "given no events, when { type: 'switch_off', by: 'bob' }: expected decide to return events, but it threw DomainError(conflict, param state): The light is already off.",
      );
      expect(() => spec.given([]).when({ type: 'break' }).then([])).toThrow(
        /it threw TypeError: state.lamp is undefined/,
      );
    });
  });

  describe('thenNothingHappened', () => {
    it('passes when decide returns no events', () => {
      spec.given([on]).when({ type: 'switch_on', by: 'ann' }).thenNothingHappened();
    });

    it('fails, showing the events, when decide returns some', () => {
      expect(() => spec.given([]).when({ type: 'switch_on', by: 'ann' }).thenNothingHappened()).toThrow(
        /expected no events[\s\S]*switched_on/,
      );
    });

    it('fails when decide throws', () => {
      expect(() => spec.given([]).when({ type: 'switch_off', by: 'bob' }).thenNothingHappened()).toThrow(
        /but it threw DomainError\(conflict/,
      );
    });
  });

  describe('thenThrows', () => {
    const offWhenOff = spec.given([on, off]).when({ type: 'switch_off', by: 'bob' });

    it('passes on the code, and on the message and param when given', () => {
      offWhenOff.thenThrows('conflict');
      offWhenOff.thenThrows({ code: 'conflict' });
      offWhenOff.thenThrows({ code: 'conflict', param: 'state' });
      offWhenOff.thenThrows({ code: 'conflict', message: 'The light is already off.', param: 'state' });
      offWhenOff.thenThrows({ code: 'conflict', message: /already off/ });
    });

    it('fails when the code, the param or the message differ', () => {
      expect(() => offWhenOff.thenThrows('not_found')).toThrow(/other than the expected one[\s\S]*"not_found"/);
      expect(() => offWhenOff.thenThrows({ code: 'conflict', param: 'id' })).toThrow(/other than the expected one/);
      expect(() => offWhenOff.thenThrows({ code: 'conflict', param: undefined })).toThrow(
        /other than the expected one/,
      );
      expect(() => offWhenOff.thenThrows({ code: 'conflict', message: 'Off.' })).toThrow(/other than the expected one/);
      expect(() => offWhenOff.thenThrows({ code: 'conflict', message: /^on/ })).toThrow(/other than the expected one/);
    });

    it('fails when decide throws something other than a DomainError', () => {
      expect(() => spec.given([]).when({ type: 'break' }).thenThrows('conflict')).toThrow(
        "expected a DomainError { code: 'conflict' }, but decide threw TypeError: state.lamp is undefined",
      );
    });

    it('fails, showing the events, when decide does not throw', () => {
      expect(() => spec.given([on]).when({ type: 'switch_off', by: 'bob' }).thenThrows('conflict')).toThrow(
        "expected a DomainError { code: 'conflict' }, but decide returned [ { type: 'switched_off', data: { by: 'bob' } } ]",
      );
      expect(() => spec.given([on]).when({ type: 'switch_on', by: 'ann' }).thenThrows('conflict')).toThrow(
        'but decide returned []',
      );
    });
  });
});

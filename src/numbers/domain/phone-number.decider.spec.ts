import { DeciderSpecification } from '../../../test/support/decider-specification';
import { type PhoneNumberEvent, phoneNumberDecider } from './phone-number.decider';

const spec = DeciderSpecification.for(phoneNumberDecider);
const NUMBER = '+14155550142';
const AGENT = { prompt: 'Answer calls for Northwind Dental.' };
const registered: PhoneNumberEvent = {
  type: 'phone_number.registered',
  data: { phone_number_id: 'pn_1', tenant_id: 'ten_a', phone_number: NUMBER, agent_config: AGENT, test_mode: false },
};
const register = (tenantId: string, phoneNumberId: string) => ({
  type: 'register' as const,
  phoneNumberId,
  tenantId,
  phoneNumber: NUMBER,
  agentConfig: AGENT,
  testMode: false,
});

describe('phone number decider', () => {
  it('a free number is registered to the tenant that asks', () => {
    spec.given([]).when(register('ten_a', 'pn_1')).then(registered);
  });

  it('a number belongs to one tenant: another tenant, or the owner under a new id, is a conflict', () => {
    spec
      .given(registered)
      .when(register('ten_b', 'pn_2'))
      .thenThrows({ code: 'conflict', message: `${NUMBER} is registered to another account.` });
    spec
      .given(registered)
      .when(register('ten_a', 'pn_2'))
      .thenThrows({ code: 'conflict', message: `${NUMBER} is already registered as pn_1.` });
    spec.given(registered).when(register('ten_a', 'pn_1')).thenNothingHappened();
  });

  it('the owner changes its agent and test mode; nothing changes, nothing is recorded', () => {
    const agent = { prompt: 'New agent', voice_id: 'voice_ava' };
    spec
      .given(registered)
      .when({ type: 'update', phoneNumberId: 'pn_1', tenantId: 'ten_a', agentConfig: agent })
      .then({ type: 'phone_number.updated', data: { phone_number_id: 'pn_1', agent_config: agent, test_mode: false } });
    spec
      .given(registered)
      .when({ type: 'update', phoneNumberId: 'pn_1', tenantId: 'ten_a', testMode: false })
      .thenNothingHappened();
  });

  it("another tenant's or a released registration is not found", () => {
    spec
      .given(registered)
      .when({ type: 'update', phoneNumberId: 'pn_1', tenantId: 'ten_b', testMode: true })
      .thenThrows({ code: 'not_found', param: 'phone_number_id' });
    spec.given(registered).when({ type: 'release', phoneNumberId: 'pn_9', tenantId: 'ten_a' }).thenThrows('not_found');
    const released: PhoneNumberEvent = { type: 'phone_number.released', data: { phone_number_id: 'pn_1' } };
    spec
      .given([registered, released])
      .when({ type: 'release', phoneNumberId: 'pn_1', tenantId: 'ten_a' })
      .thenThrows('not_found');
  });

  it('once released, another tenant may register it', () => {
    const released: PhoneNumberEvent = { type: 'phone_number.released', data: { phone_number_id: 'pn_1' } };
    spec
      .given([registered, released])
      .when(register('ten_b', 'pn_2'))
      .then({
        type: 'phone_number.registered',
        data: {
          phone_number_id: 'pn_2',
          tenant_id: 'ten_b',
          phone_number: NUMBER,
          agent_config: AGENT,
          test_mode: false,
        },
      });
  });
});

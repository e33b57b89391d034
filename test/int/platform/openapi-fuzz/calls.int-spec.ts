// The OpenAPI fuzz, group 'calls': the requests of the seed's run that go to calls, sessions, recordings and phone numbers.
// What is sent and asserted, and the FUZZ_SEED / FUZZ_REQUESTS / FUZZ_ONLY overrides: test/support/openapi-fuzz/index.ts.
import { describeOpenApiFuzz } from '../../../support/openapi-fuzz';

describeOpenApiFuzz('calls');

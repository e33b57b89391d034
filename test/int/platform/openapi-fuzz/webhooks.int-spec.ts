// The OpenAPI fuzz, group 'webhooks': the requests of the seed's run that go to webhook endpoints, deliveries and events.
// What is sent and asserted, and the FUZZ_SEED / FUZZ_REQUESTS / FUZZ_ONLY overrides: test/support/openapi-fuzz/index.ts.
import { describeOpenApiFuzz } from '../../../support/openapi-fuzz';

describeOpenApiFuzz('webhooks');

// The OpenAPI fuzz, group 'campaigns': the requests of the seed's run that go to campaigns and the do-not-call list.
// What is sent and asserted, and the FUZZ_SEED / FUZZ_REQUESTS / FUZZ_ONLY overrides: test/support/openapi-fuzz/index.ts.
import { describeOpenApiFuzz } from '../../../support/openapi-fuzz';

describeOpenApiFuzz('campaigns');

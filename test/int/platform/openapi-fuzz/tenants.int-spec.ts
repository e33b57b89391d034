// The OpenAPI fuzz, group 'tenants': the requests of the seed's run that go to tenants, the operator routes, credits and the tool secret.
// What is sent and asserted, and the FUZZ_SEED / FUZZ_REQUESTS / FUZZ_ONLY overrides: test/support/openapi-fuzz/index.ts.
import { describeOpenApiFuzz } from '../../../support/openapi-fuzz';

describeOpenApiFuzz('tenants');

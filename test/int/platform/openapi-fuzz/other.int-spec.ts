// The OpenAPI fuzz, group 'other': the requests of the seed's run that go to voice clones, rooms and every other operation (health, readiness).
// What is sent and asserted, and the FUZZ_SEED / FUZZ_REQUESTS / FUZZ_ONLY overrides: test/support/openapi-fuzz/index.ts.
import { describeOpenApiFuzz } from '../../../support/openapi-fuzz';

describeOpenApiFuzz('other');

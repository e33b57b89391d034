/**
 * The credits context's public face: what other contexts may use. The holds on billed work
 * (`CreditHolds`, provided by `CreditHoldsModule`): sessions and campaigns ask it before starting a
 * tenant's billed work and park their timers on it. CreditsModule itself is not here: it reacts to
 * the sessions' events, so a path from sessions to it would be a cycle; app.module.ts lists it by
 * its module file.
 */
export { CreditHoldsModule } from './credit-holds.module';
export { CreditHolds } from './application/credit-holds';

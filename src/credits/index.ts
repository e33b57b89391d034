/**
 * The credits context's public face. Other contexts need nothing of it by import: the hold on billed
 * work is sessions' `BillingHolds` port, which credits provides globally (credits.module.ts);
 * app.module.ts lists CreditsModule by its module file.
 */
export { CreditsModule } from './credits.module';

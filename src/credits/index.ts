/** The credits context's public face: what other contexts may use. */
export { CreditsModule } from './credits.module';

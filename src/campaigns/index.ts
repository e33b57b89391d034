/** The campaigns context's public face: what other contexts may use. */
export { CampaignsModule } from './campaigns.module';

import { Module } from '@nestjs/common';
import type { BoundedContext } from '../runtime/bounded-context';
import { campaignEvents, type CampaignPayloads } from './campaigns.events';

/** Only its part of the event catalog so far. */
@Module({})
export class CampaignsModule {
  static readonly context: BoundedContext<CampaignPayloads> = { name: 'campaigns', events: campaignEvents };
}

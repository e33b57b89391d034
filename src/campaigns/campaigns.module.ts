import { Module, OnModuleInit } from '@nestjs/common';
import { CampaignProgressController } from './api/campaign-progress.controller';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { BoundedContext } from '../runtime/bounded-context';
import { ProjectionsService } from '../runtime/processing/processors.service';
import { TimersService } from '../runtime/timers/timers.service';
import { TenantsModule } from '../tenants';
import { CampaignsController } from './api/campaigns.controller';
import { AddContactsHandler, ChangeCampaignHandler, CreateCampaignHandler } from './application/campaign.commands';
import { campaignReactor } from './application/campaign-reactor.processor';
import { CampaignsQueries } from './application/campaigns.queries';
import { CampaignPacer } from './application/pacer';
import { campaignEvents, type CampaignPayloads } from './campaigns.events';
import { campaignsMigrations } from './campaigns.migrations';
import { CampaignContactEntity, CampaignEntity } from './projections/campaign.entity';
import { campaignsProjection } from './projections/campaigns.projection';
import { VoicesModule } from '../voices';

import { campaignEdge } from './domain/campaign.decider';

/** Campaigns: contact lists, the pacer that dials them, and each contact's outcome as events (docs/campaigns.md). */
@Module({
  imports: [TypeOrmModule.forFeature([CampaignEntity, CampaignContactEntity]), TenantsModule, VoicesModule],
  controllers: [CampaignsController, CampaignProgressController],
  providers: [CreateCampaignHandler, AddContactsHandler, ChangeCampaignHandler, CampaignsQueries, CampaignPacer],
})
export class CampaignsModule implements OnModuleInit {
  static readonly context: BoundedContext<CampaignPayloads> = {
    name: 'campaigns',
    migrations: campaignsMigrations,
    events: campaignEvents,
    edge: campaignEdge,
  };

  constructor(
    private readonly projections: ProjectionsService,
    private readonly timers: TimersService,
    private readonly pacer: CampaignPacer,
  ) {}

  onModuleInit(): void {
    this.projections.registerProjection(campaignsProjection);
    this.projections.registerProcessor(campaignReactor(this.timers));
    this.pacer.register();
  }
}

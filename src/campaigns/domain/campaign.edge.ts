import { defineEdge } from '../../kernel/event-edge';
import type { CampaignEvent } from './campaign.state';

/** Who a contact event is about: the fields every `campaign.contact_*` payload carries. */
const contact = {
  contact_id: true,
  campaign_id: true,
  phone_number: true,
  email: true,
  first_name: true,
  last_name: true,
} as const;
const outcome = { session_id: true, duration_seconds: true, actual_cost_cents: true, ...contact } as const;

/** A campaign's stored events read back (event-edge.ts): each type's required fields. */
export const campaignEdge = defineEdge<CampaignEvent>({
  'campaign.defined': {
    campaign_id: true,
    name: true,
    from_number: true,
    test_mode: true,
    agent_config: true,
    settings: true,
  },
  'campaign.contacts_added': { contacts: true },
  'campaign.agent_frozen': { agent_config: true },
  'campaign.dispatch_round': { at: true },
  'campaign.created': { campaign_id: true, name: true, channel: true, session_type: true },
  'campaign.started': { campaign_id: true, started_at: true },
  'campaign.paused': { campaign_id: true, paused_at: true, reason: true },
  'campaign.paused_quiet_hours': { campaign_id: true, paused_at: true, next_open_at: true },
  'campaign.resumed': { campaign_id: true, resumed_at: true, reason: true },
  'campaign.completed': {
    campaign_id: true,
    completed_at: true,
    total_contacts: true,
    completed_sessions: true,
    failed_sessions: true,
  },
  'campaign.contact_dispatched': { delivery_row_id: true, ...contact },
  'campaign.contact_completed': outcome,
  'campaign.contact_failed': outcome,
  'campaign.contact_skipped': { skip_reason: true, ...contact },
});

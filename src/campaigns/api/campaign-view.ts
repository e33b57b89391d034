import type { CampaignContactEntity, CampaignEntity } from '../projections/campaign.entity';

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

/** A campaign as the API shows it. `status` is one of docs/campaigns.md's (a quiet-hours pause is `paused`, with `pause_reason`). */
export function presentCampaign(row: CampaignEntity) {
  const quiet = row.status === 'paused_quiet_hours';
  return {
    campaign_id: row.campaignId,
    name: row.name,
    channel: 'phone_call',
    session_type: 'phone_call',
    status: quiet ? 'paused' : row.status,
    pause_reason: quiet ? 'quiet_hours' : row.status === 'paused' ? 'manual' : null,
    next_open_at: iso(row.nextOpenAt),
    from_number: row.fromNumber,
    test_mode: row.testMode,
    agent_config: row.agentConfig,
    settings: row.settings,
    total_contacts: row.totalContacts,
    completed_sessions: row.completedContacts,
    failed_sessions: row.failedContacts,
    contacts: {
      pending: row.pendingContacts,
      dispatched: row.dispatchedContacts,
      completed: row.completedContacts,
      failed: row.failedContacts,
      skipped: row.skippedContacts,
    },
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    paused_at: iso(row.pausedAt),
    completed_at: iso(row.completedAt),
  };
}

export function presentContact(row: CampaignContactEntity) {
  return {
    contact_id: row.contactId,
    campaign_id: row.campaignId,
    phone_number: row.phoneNumber,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    timezone: row.timezone,
    zones: row.zones,
    status: row.status,
    skip_reason: row.skipReason,
    session_id: row.sessionId,
    dispatched_at: iso(row.dispatchedAt),
    finished_at: iso(row.finishedAt),
    duration_seconds: row.durationSeconds,
    actual_cost_cents: row.actualCostCents,
    created_at: row.createdAt.toISOString(),
  };
}

import type { PoolClient } from 'pg';
import { defineProjection, type Handled } from '../../runtime/processing/processor';
import { campaignEdge, CampaignEvent, campaignStream } from '../domain/campaign.decider';
import type { ContactStatus } from '../domain/contact';

/** The counter column of each contact status. */
const COUNTER: Record<ContactStatus, string> = {
  pending: 'pending_contacts',
  dispatched: 'dispatched_contacts',
  completed: 'completed_contacts',
  failed: 'failed_contacts',
  skipped: 'skipped_contacts',
};

/** Moves one contact from `from` to its new status (only if it is still in `from`), and the counters with it. */
async function moveContact(
  tx: PoolClient,
  event: Handled<CampaignEvent>,
  contactId: string,
  from: ContactStatus,
  to: ContactStatus,
  set: string,
  params: unknown[],
): Promise<void> {
  const { rowCount } = await tx.query(
    `UPDATE campaign_contacts SET status = $3${set} WHERE contact_id = $1 AND status = $2`,
    [contactId, from, to, ...params],
  );
  if (rowCount === 0) return;
  await tx.query(
    `UPDATE campaigns SET ${COUNTER[from]} = ${COUNTER[from]} - 1, ${COUNTER[to]} = ${COUNTER[to]} + 1
     WHERE campaign_id = $1`,
    [event.entityId],
  );
}

/** The campaigns and their contacts, as `GET /v1/campaigns…` shows them. */
export const campaignsProjection = defineProjection({
  name: 'campaigns',
  edge: campaignEdge,
  stream: campaignStream,
  tables: ['campaigns', 'campaign_contacts'],
  async apply(tx, event) {
    const at = event.metadata.created_at;
    const id = event.entityId;
    const setStatus = (status: string, extra = '', params: unknown[] = []) =>
      tx.query(`UPDATE campaigns SET status = $2${extra} WHERE campaign_id = $1`, [id, status, ...params]);
    switch (event.type) {
      case 'campaign.defined': {
        const d = event.data;
        await tx.query(
          `INSERT INTO campaigns (campaign_id, tenant_id, name, status, from_number, test_mode, agent_config, settings, created_at)
           VALUES ($1, $2, $3, 'draft', $4, $5, $6, $7, $8) ON CONFLICT (campaign_id) DO NOTHING`,
          [
            id,
            event.metadata.tenant_id,
            d.name,
            d.from_number,
            d.test_mode,
            d.agent_config === null ? null : JSON.stringify(d.agent_config),
            JSON.stringify(d.settings),
            at,
          ],
        );
        return;
      }
      case 'campaign.contacts_added': {
        const contacts = event.data.contacts;
        await tx.query(
          `INSERT INTO campaign_contacts (contact_id, campaign_id, tenant_id, ordinal, phone_number, email, first_name,
             last_name, timezone, zones, status, created_at)
           SELECT c.contact_id, $1, $2, base.n + c.i, c.phone_number, c.email, c.first_name, c.last_name, c.timezone,
             c.zones, 'pending', $3
           FROM (SELECT total_contacts AS n FROM campaigns WHERE campaign_id = $1) base,
             unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::jsonb[])
               WITH ORDINALITY AS c(contact_id, phone_number, email, first_name, last_name, timezone, zones, i)
           ON CONFLICT (contact_id) DO NOTHING`,
          [
            id,
            event.metadata.tenant_id,
            at,
            contacts.map((c) => c.contact_id),
            contacts.map((c) => c.e164 ?? c.phone_number),
            contacts.map((c) => c.email),
            contacts.map((c) => c.first_name),
            contacts.map((c) => c.last_name),
            contacts.map((c) => c.timezone),
            contacts.map((c) => JSON.stringify(c.zones)),
          ],
        );
        await tx.query(
          `UPDATE campaigns SET total_contacts = total_contacts + $2, pending_contacts = pending_contacts + $2
           WHERE campaign_id = $1`,
          [id, contacts.length],
        );
        return;
      }
      case 'campaign.started':
        await setStatus('running', ', started_at = $3', [event.data.started_at]);
        return;
      case 'campaign.paused':
        await setStatus('paused', ', paused_at = $3', [event.data.paused_at]);
        return;
      case 'campaign.paused_quiet_hours':
        await setStatus('paused_quiet_hours', ', paused_at = $3, next_open_at = $4', [
          event.data.paused_at,
          event.data.next_open_at,
        ]);
        return;
      case 'campaign.resumed':
        await setStatus('running', ', next_open_at = NULL');
        return;
      case 'campaign.completed':
        await setStatus('completed', ', completed_at = $3, next_open_at = NULL', [event.data.completed_at]);
        return;
      case 'campaign.contact_dispatched':
        await moveContact(
          tx,
          event,
          event.data.contact_id,
          'pending',
          'dispatched',
          ', session_id = $4, dispatched_at = $5',
          [event.data.delivery_row_id, at],
        );
        return;
      case 'campaign.contact_skipped':
        await moveContact(
          tx,
          event,
          event.data.contact_id,
          'pending',
          'skipped',
          ', skip_reason = $4, finished_at = $5',
          [event.data.skip_reason, at],
        );
        return;
      case 'campaign.contact_completed':
      case 'campaign.contact_failed':
        await moveContact(
          tx,
          event,
          event.data.contact_id,
          'dispatched',
          event.type === 'campaign.contact_completed' ? 'completed' : 'failed',
          ', finished_at = $4, duration_seconds = $5, actual_cost_cents = $6',
          [at, event.data.duration_seconds, event.data.actual_cost_cents],
        );
        return;
      case 'campaign.created':
      case 'campaign.agent_frozen':
      case 'campaign.dispatch_round':
        return;
      default: {
        const unreachable: never = event;
        void unreachable;
      }
    }
  },
});

// Generated from openapi.json (the service's /openapi.json) by `npm run client:generate`. Do not edit.

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["HealthController_health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["HealthController_ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/dead_letters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["DeadLettersController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/dead_letters/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["DeadLettersController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/dead_letters/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["DeadLettersController_retry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/projections/rebuild": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["AdminController_rebuild"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["AdminController_createTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/tenants/{tenantId}/api_keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["AdminController_issueKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/tenants/{tenantId}/api_keys/{keyPrefix}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["AdminController_revokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/tenants/{tenantId}/suspend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["AdminController_suspend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/tenants/{tenantId}/reactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["AdminController_reactivate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's events in commit order, as webhook envelopes; `wait` holds the request for new ones. */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["WebhookEndpointsController_list"];
        put?: never;
        post: operations["WebhookEndpointsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["WebhookEndpointsController_get"];
        put?: never;
        post?: never;
        delete: operations["WebhookEndpointsController_remove"];
        options?: never;
        head?: never;
        patch: operations["WebhookEndpointsController_update"];
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/rotate_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["WebhookEndpointsController_rotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["WebhookEndpointsController_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["WebhookEndpointsController_enable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["WebhookEndpointsController_deliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["WebhookEndpointsController_retry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["WebhookEndpointsController_recover"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One delivery: the payload sent and each attempt with the receiver’s answer. */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Per webhook endpoint: the deliveries created in the last days, by outcome, and the success rate. */
        get: operations["getDeliveryAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["CallsController_placeCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["CallsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["CallsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/transcript.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["CallsController_transcript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["CallsController_events"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/recording": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["CallsController_recording"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/recordings/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["RecordingsController_file"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Calls per UTC day: counts by status, answer rate, average duration and spend. */
        get: operations["getCallAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dnc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["DncController_list"];
        put?: never;
        post: operations["DncController_add"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dnc/{phoneNumber}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["DncController_remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/campaigns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["CampaignsController_list"];
        put?: never;
        post: operations["CampaignsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/campaigns/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["CampaignsController_run"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/campaigns/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["CampaignsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/campaigns/{id}/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["CampaignsController_contacts"];
        put?: never;
        post: operations["CampaignsController_addContacts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/campaigns/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["CampaignsController_start"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/campaigns/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["CampaignsController_pause"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/campaigns/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["CampaignsController_resume"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/campaigns/{id}/progress": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Contacts finished per interval (completed, failed, skipped) and the running total. */
        get: operations["getCampaignProgress"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/credits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["CreditsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["CreditsController_update"];
        trace?: never;
    };
    "/v1/credits/topups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["CreditsController_topups"];
        put?: never;
        post: operations["CreditsController_topup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/credits/topups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["CreditsController_getTopup"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/tenants/{tenantId}/credits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["AdminCreditsController_grant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/voice_clones": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["VoicesController_list"];
        put?: never;
        post: operations["VoicesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/voice_clones/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["VoicesController_get"];
        put?: never;
        post?: never;
        delete: operations["VoicesController_remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rooms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["RoomsController_list"];
        put?: never;
        post: operations["RoomsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rooms/{room_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["RoomsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/phone_numbers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["PhoneNumbersController_list"];
        put?: never;
        post: operations["PhoneNumbersController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/phone_numbers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["PhoneNumbersController_get"];
        put?: never;
        post?: never;
        delete: operations["PhoneNumbersController_remove"];
        options?: never;
        head?: never;
        patch: operations["PhoneNumbersController_update"];
        trace?: never;
    };
    "/v1/phone_numbers/{id}/test_inbound_calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["PhoneNumbersController_testInboundCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/phone_numbers/{id}/verification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["PhoneNumbersController_requestVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/phone_numbers/{id}/verification/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["PhoneNumbersController_confirmVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/tenants/{tenantId}/phone_numbers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["AdminPhoneNumbersController_assign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/tenants/{tenantId}/dashboard_links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["DashboardLinksController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/tenants/{tenantId}/dashboard_sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["DashboardLinksController_endSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "session.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * session.created
         * @description A call was queued for dispatch.
         */
        post: operations["session.created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "session.started": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * session.started
         * @description The agent picked up and the conversation started; recording starts about now when enabled.
         */
        post: operations["session.started"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "session.ended": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * session.ended
         * @description The call finished with status completed.
         */
        post: operations["session.ended"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "session.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * session.failed
         * @description The call finished with status failed, no_answer, voicemail or busy.
         */
        post: operations["session.failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "session.disposition_set": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * session.disposition_set
         * @description A model derived the disposition of a call placed by an agent in a campaign (asynchronous, after session.ended; at most once per session).
         */
        post: operations["session.disposition_set"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "session.recording_completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * session.recording_completed
         * @description The recording was finalised and uploaded to a public file host; lags session.ended by tens of seconds.
         */
        post: operations["session.recording_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "session.transfer_initiated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * session.transfer_initiated
         * @description The agent transferred the live call to a human (fires mid-call).
         */
        post: operations["session.transfer_initiated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "session.opt_out_detected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * session.opt_out_detected
         * @description The caller asked not to be called again; the number is added to the tenant's do-not-call list automatically.
         */
        post: operations["session.opt_out_detected"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "session.opt_out_recording_pending_purge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * session.opt_out_recording_pending_purge
         * @description After an opt-out, the recording was flagged for purge at the end of the grace window.
         */
        post: operations["session.opt_out_recording_pending_purge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "session.opt_out_recording_purged": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * session.opt_out_recording_purged
         * @description The recording was purged; its recording_url answers 404 from now on.
         */
        post: operations["session.opt_out_recording_purged"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "session.consent_refused": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * session.consent_refused
         * @description The caller refused recording consent; the call was ended.
         */
        post: operations["session.consent_refused"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "campaign.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * campaign.created
         * @description A campaign was created; it is still a draft.
         */
        post: operations["campaign.created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "campaign.started": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * campaign.started
         * @description The campaign moved from draft to running.
         */
        post: operations["campaign.started"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "campaign.paused": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * campaign.paused
         * @description The campaign was paused by hand; in-flight calls finish.
         */
        post: operations["campaign.paused"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "campaign.paused_quiet_hours": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * campaign.paused_quiet_hours
         * @description The campaign paused itself: every remaining contact is inside its local quiet hours.
         */
        post: operations["campaign.paused_quiet_hours"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "campaign.resumed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * campaign.resumed
         * @description A paused campaign is running again: its quiet hours ended, or it was resumed by hand.
         */
        post: operations["campaign.resumed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "campaign.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * campaign.completed
         * @description Every contact reached a terminal state.
         */
        post: operations["campaign.completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "campaign.contact_dispatched": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * campaign.contact_dispatched
         * @description One contact was handed to the dispatcher and a session created.
         */
        post: operations["campaign.contact_dispatched"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "campaign.contact_completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * campaign.contact_completed
         * @description A contact reached terminal success.
         */
        post: operations["campaign.contact_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "campaign.contact_failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * campaign.contact_failed
         * @description A contact reached terminal failure; the underlying error is in the session.failed event of its session.
         */
        post: operations["campaign.contact_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "campaign.contact_skipped": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * campaign.contact_skipped
         * @description A contact was skipped before dispatch and never had a session.
         */
        post: operations["campaign.contact_skipped"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "credits.low_balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * credits.low_balance
         * @description The balance fell below the tenant's warning threshold (once per drop, not on every later call).
         */
        post: operations["credits.low_balance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "credits.depleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * credits.depleted
         * @description The balance reached zero; new dispatches wait until a top-up settles, running calls finish.
         */
        post: operations["credits.depleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "credits.topup_succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * credits.topup_succeeded
         * @description A top-up settled with the payment processor; fires after the balance change is committed.
         */
        post: operations["credits.topup_succeeded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "voice_clone.training_started": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * voice_clone.training_started
         * @description Samples were uploaded and the training job picked them up.
         */
        post: operations["voice_clone.training_started"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "voice_clone.training_succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * voice_clone.training_succeeded
         * @description Training finished; the voice can be used in campaigns and sessions.
         */
        post: operations["voice_clone.training_succeeded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "voice_clone.training_failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * voice_clone.training_failed
         * @description Training failed; error_code says why.
         */
        post: operations["voice_clone.training_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "room.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * room.created
         * @description A WebRTC room was created and a signed URL minted for the participant.
         */
        post: operations["room.created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "room.landing_viewed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * room.landing_viewed
         * @description The participant opened the room URL and has not joined yet (once per room).
         */
        post: operations["room.landing_viewed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "room.joined": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * room.joined
         * @description The participant accepted microphone access and joined; the agent is connected.
         */
        post: operations["room.joined"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "room.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * room.completed
         * @description Both sides hung up cleanly.
         */
        post: operations["room.completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "room.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * room.expired
         * @description expires_at passed and nobody joined.
         */
        post: operations["room.expired"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "room.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * room.failed
         * @description Room setup could not finish, for example relay authentication failed or the agent is unreachable.
         */
        post: operations["room.failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "number.answer_rate_degraded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * number.answer_rate_degraded
         * @description An inbound number's answer rate fell below 80% over a rolling 24 hours.
         */
        post: operations["number.answer_rate_degraded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "function.timeout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * function.timeout
         * @description An agent function call exceeded its timeout; the agent tells the caller it is still working and the conversation continues.
         */
        post: operations["function.timeout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.test
         * @description Synthetic event sent by POST /v1/webhook_endpoints/{id}/test to that endpoint only.
         */
        post: operations["webhook.test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.endpoint_disabled_notice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.endpoint_disabled_notice
         * @description The endpoint was suspended automatically after repeated permanent delivery failures; an e-mail notice is sent too.
         */
        post: operations["webhook.endpoint_disabled_notice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        RebuildProjectionsDto: {
            /** @example tenants */
            projection?: string;
        };
        CreateTenantDto: {
            /** @example Acme Dental */
            name: string;
            /** @example ops@acme.example */
            email?: string;
            /**
             * @default pro
             * @enum {string}
             */
            plan?: "starter" | "pro";
        };
        EventEnvelopeDto: {
            /** Format: uuid */
            id: string;
            /** @example session.ended */
            type: string;
            tenant_id: string;
            /** Format: date-time */
            created_at: string;
            data: {
                [key: string]: unknown;
            };
        };
        EventList: {
            data: components["schemas"]["EventEnvelopeDto"][];
            has_more: boolean;
        };
        CreateEndpointDto: {
            /** @example https://crm.example.com/hooks/voice */
            url: string;
            /**
             * @default [
             *       "*"
             *     ]
             * @example [
             *       "session.*",
             *       "campaign.completed"
             *     ]
             */
            events?: string[];
            /** @example CRM sync */
            description?: string;
        };
        UpdateEndpointDto: {
            url?: string;
            /**
             * @example [
             *       "*"
             *     ]
             */
            events?: string[];
            /** @description null clears it. */
            description?: Record<string, never> | null;
        };
        RecoverDto: {
            /**
             * @description Re-send every delivery created since then that did not succeed.
             * @example 2026-11-21T00:00:00Z
             */
            since: string;
        };
        AttemptDetailDto: {
            /** Format: date-time */
            at: string;
            /** @description The receiver’s HTTP status; null without an answer. */
            http_status: number | null;
            /** @example ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9 */
            error: string | null;
            duration_ms: number;
            /** @description The first 4 KB of the receiver’s answer (as text); null when there was none. */
            response_body: string | null;
        };
        DeliveryDetailDto: {
            delivery_id: string;
            /** Format: uuid */
            event_id: string;
            /** @example session.ended */
            event_type: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            next_attempt_at: string | null;
            /** @description The envelope sent, byte for byte as its JSON (the same for every attempt). */
            payload: {
                [key: string]: unknown;
            };
            attempts: components["schemas"]["AttemptDetailDto"][];
        };
        EndpointDeliveryFiguresDto: {
            endpoint_id: string;
            url: string;
            /** @enum {string} */
            status: "active" | "suspended";
            /** @description Failed attempts in a row, now. */
            failure_streak: number;
            /** @description Deliveries created in the window that arrived (2xx). */
            succeeded: number;
            /** @description Deliveries created in the window that were given up on. */
            failed: number;
            /** @description Deliveries created in the window still being tried or held. */
            pending: number;
            /** @description succeeded ÷ (succeeded + failed); null when neither. */
            success_rate: number | null;
        };
        DeliveryAnalyticsDto: {
            /** @example 30 */
            days: number;
            /** @enum {string} */
            time_zone: "UTC";
            /**
             * @description The first UTC date.
             * @example 2026-10-27
             */
            from: string;
            /**
             * @description The last UTC date (today).
             * @example 2026-11-25
             */
            to: string;
            /** @description Every endpoint not deleted, newest first. */
            data: components["schemas"]["EndpointDeliveryFiguresDto"][];
        };
        DispositionDto: {
            /** @example appointment_booked */
            code: string;
            /** @example The caller booked an appointment. */
            description: string;
        };
        AgentConfigDto: {
            /** @example You are Ava, a friendly scheduling assistant for Northwind Dental. */
            prompt: string;
            /** @example voice_default */
            voice_id?: string;
            dispositions?: components["schemas"]["DispositionDto"][];
        };
        CreateCallDto: {
            /**
             * @description International format with a leading +.
             * @example +14155550100
             */
            to: string;
            /** @example +14155550000 */
            from: string;
            agent_config: components["schemas"]["AgentConfigDto"];
            /**
             * @description Play the call on the test pool: no carrier, no credits.
             * @default false
             */
            test_mode?: boolean;
        };
        CallsByStatusDto: {
            queued: number;
            in_progress: number;
            completed: number;
            failed: number;
            no_answer: number;
            voicemail: number;
            busy: number;
        };
        CallFiguresDto: {
            /** @description Calls created. */
            calls: number;
            /** @description Calls by their current status. */
            by_status: components["schemas"]["CallsByStatusDto"];
            /** @description Calls that ended (any status but queued and in_progress). */
            ended: number;
            /** @description Ended calls that were answered (reached in_progress). */
            answered: number;
            /** @description answered ÷ ended, 0 to 1; null when none ended. */
            answer_rate: number | null;
            /** @description Mean duration of the answered calls. */
            average_duration_seconds: number | null;
            /** @description Sum of the calls’ actual_cost_cents (USD cents). */
            spend_cents: number;
        };
        CallDayDto: {
            /** @description Calls created. */
            calls: number;
            /** @description Calls by their current status. */
            by_status: components["schemas"]["CallsByStatusDto"];
            /** @description Calls that ended (any status but queued and in_progress). */
            ended: number;
            /** @description Ended calls that were answered (reached in_progress). */
            answered: number;
            /** @description answered ÷ ended, 0 to 1; null when none ended. */
            answer_rate: number | null;
            /** @description Mean duration of the answered calls. */
            average_duration_seconds: number | null;
            /** @description Sum of the calls’ actual_cost_cents (USD cents). */
            spend_cents: number;
            /**
             * @description The UTC date.
             * @example 2026-11-25
             */
            date: string;
        };
        CallAnalyticsDto: {
            /** @example 30 */
            days: number;
            /** @enum {string} */
            time_zone: "UTC";
            /**
             * @description The first UTC date.
             * @example 2026-10-27
             */
            from: string;
            /**
             * @description The last UTC date (today).
             * @example 2026-11-25
             */
            to: string;
            totals: components["schemas"]["CallFiguresDto"];
            /** @description One entry per day, oldest first, days without calls included. */
            data: components["schemas"]["CallDayDto"][];
        };
        AddDncDto: {
            /** @example +14155550106 */
            phone_number: string;
        };
        ContactDto: {
            /**
             * @description International format; an invalid number is accepted and skipped as `invalid`.
             * @example +14155550100
             */
            phone_number: string;
            /** @example ada@example.com */
            email?: Record<string, never> | null;
            /** @example Ada */
            first_name?: Record<string, never> | null;
            /** @example Lovelace */
            last_name?: Record<string, never> | null;
            /**
             * @description IANA time zone of the contact; overrides the zone derived from the number.
             * @example America/Los_Angeles
             */
            timezone?: Record<string, never> | null;
        };
        QuietHoursDto: {
            /**
             * @description Local time (HH:MM) the quiet window starts.
             * @example 21:00
             */
            start: string;
            /**
             * @description Local time (HH:MM) it ends; equal to start: no quiet hours.
             * @example 08:00
             */
            end: string;
        };
        CampaignSettingsDto: {
            /** @default 5 */
            max_concurrency?: number;
            /** @description Default 21:00 to 08:00 in each contact’s zone. */
            quiet_hours?: components["schemas"]["QuietHoursDto"];
            /** @default 3 */
            max_calls_per_number_per_day?: number;
            /**
             * @description RFC 3339; contacts still waiting then are skipped.
             * @example 2026-03-06T01:00:00.000Z
             */
            ends_at?: Record<string, never>;
        };
        CreateCampaignDto: {
            /** @example March recall */
            name: string;
            /** @example +14155550000 */
            from_number: string;
            /** @description Frozen into the campaign when it starts. */
            agent_config?: components["schemas"]["AgentConfigDto"];
            /** @default false */
            test_mode?: boolean;
            contacts?: components["schemas"]["ContactDto"][];
            settings?: components["schemas"]["CampaignSettingsDto"];
        };
        AddContactsDto: {
            contacts: components["schemas"]["ContactDto"][];
        };
        ProgressBucketDto: {
            /**
             * Format: date-time
             * @description The start of the bucket (UTC).
             */
            at: string;
            /** @description Contacts whose call completed in the bucket. */
            completed: number;
            /** @description Contacts whose call failed in the bucket. */
            failed: number;
            /** @description Contacts skipped in the bucket (do-not-call, opt-out, …). */
            skipped: number;
            /** @description Contacts finished (any outcome) up to the end of the bucket. */
            finished_total: number;
        };
        CampaignProgressDto: {
            campaign_id: string;
            /** @enum {string} */
            interval: "minute" | "hour" | "day";
            /** @enum {string} */
            time_zone: "UTC";
            total_contacts: number;
            /** @description The buckets in which contacts finished, oldest first (empty ones left out); at most 1000. */
            data: components["schemas"]["ProgressBucketDto"][];
        };
        UpdateCreditsDto: {
            /**
             * @description Warn (credits.low_balance) when the balance drops below this, in cents; 0: never.
             * @example 500
             */
            threshold_cents: number;
        };
        CreateTopupDto: {
            /**
             * @description Cents to add once the payment settles.
             * @example 5000
             */
            amount_cents: number;
        };
        GrantCreditDto: {
            /**
             * @description Cents; negative values are debit adjustments.
             * @example 5000
             */
            amount_cents: number;
        };
        CreateRoomDto: {
            /**
             * @description Your reference, echoed in session.ended and the room events so that you can join on it.
             * @example order-84213
             */
            client_reference_id?: Record<string, never> | null;
            /** @description The agent the participant talks to. */
            agent_config?: components["schemas"]["AgentConfigDto"];
            /**
             * @description Overrides agent_config.voice_id.
             * @example voice_default
             */
            voice_id?: string;
            /** @description How long the link can be used to join; default ROOM_DEFAULT_TTL (1 hour). */
            expires_in_seconds?: number;
            /**
             * @description agent_unreachable: the agent is found unreachable while the room is set up (room.failed).
             * @enum {string}
             */
            test_scenario?: "agent_unreachable";
        };
        CreatePhoneNumberDto: {
            /**
             * @description International format with a leading +.
             * @example +14155550142
             */
            phone_number: string;
            /** @description The agent that answers inbound calls to the number. */
            agent_config: components["schemas"]["AgentConfigDto"];
            /**
             * @description Inbound calls to it are test calls: free.
             * @default false
             */
            test_mode?: boolean;
        };
        UpdatePhoneNumberDto: {
            agent_config?: components["schemas"]["AgentConfigDto"];
            test_mode?: boolean;
        };
        TestInboundCallDto: {
            /**
             * @description The caller, in international format.
             * @example +14155550123
             */
            from_number: string;
            /**
             * @description true: the agent picks up and talks, completed; false: nobody answers (no_answer).
             * @default true
             */
            answered?: boolean;
        };
        ConfirmVerificationDto: {
            /**
             * @description The 6 digits spoken on the verification call.
             * @example 123456
             */
            code: string;
        };
        AssignPhoneNumberDto: {
            /**
             * @description International format with a leading +.
             * @example +14155550142
             */
            phone_number: string;
            /** @description The agent that answers; absent: the tenant's registration's, or a default one. */
            agent_config?: components["schemas"]["AgentConfigDto"];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    HealthController_health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    HealthController_ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    DeadLettersController_list: {
        parameters: {
            query: {
                processor: string;
                status: string;
                limit: string;
                starting_after: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    DeadLettersController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    DeadLettersController_retry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    AdminController_rebuild: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RebuildProjectionsDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    AdminController_createTenant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTenantDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    AdminController_issueKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    AdminController_revokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
                keyPrefix: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    AdminController_suspend: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    AdminController_reactivate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                type?: string;
                /** @description Event id cursor: events committed after this one (before it with order=desc). */
                after?: string;
                limit?: number;
                /** @description Long polling: when no event follows the cursor, hold the request up to this many seconds until one commits. At most 10 such requests are held at once per tenant (429 beyond). */
                wait?: number;
                /** @description `asc`: commit order (the feed). `desc`: newest first, e.g. `limit=1` for the tail; no `wait`. */
                order?: "asc" | "desc";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventList"];
                };
            };
            /** @description More than 10 long polls held for the tenant. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    WebhookEndpointsController_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    WebhookEndpointsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateEndpointDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    WebhookEndpointsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    WebhookEndpointsController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    WebhookEndpointsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateEndpointDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    WebhookEndpointsController_rotate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    WebhookEndpointsController_test: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    WebhookEndpointsController_enable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    WebhookEndpointsController_deliveries: {
        parameters: {
            query?: {
                /** @description 1 to 100 */
                limit?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    WebhookEndpointsController_retry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    WebhookEndpointsController_recover: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecoverDto"];
            };
        };
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryDetailDto"];
                };
            };
        };
    };
    getDeliveryAnalytics: {
        parameters: {
            query?: {
                /** @description How many UTC days, today included. */
                days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryAnalyticsDto"];
                };
            };
        };
    };
    CallsController_placeCall: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCallDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CallsController_list: {
        parameters: {
            query?: {
                status?: "queued" | "in_progress" | "completed" | "failed" | "no_answer" | "voicemail" | "busy";
                campaign_id?: string;
                direction?: "outbound" | "inbound";
                /** @description 1 to 100, default 20 */
                limit?: string;
                /** @description A session id: the page after it */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CallsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CallsController_transcript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CallsController_events: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CallsController_recording: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    RecordingsController_file: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getCallAnalytics: {
        parameters: {
            query?: {
                /** @description How many UTC days, today included. */
                days?: number;
                /** @description Only test calls, or only production calls. */
                test_mode?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CallAnalyticsDto"];
                };
            };
        };
    };
    DncController_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    DncController_add: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddDncDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    DncController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                phoneNumber: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CampaignsController_list: {
        parameters: {
            query?: {
                /** @description 1 to 100, default 20 */
                limit?: string;
                /** @description A campaign id: the page after it */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CampaignsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCampaignDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CampaignsController_run: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCampaignDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CampaignsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CampaignsController_contacts: {
        parameters: {
            query?: {
                status?: "pending" | "dispatched" | "completed" | "failed" | "skipped";
                /** @description 1 to 100, default 20 */
                limit?: string;
                /** @description A contact id: the page after it */
                starting_after?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CampaignsController_addContacts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddContactsDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CampaignsController_start: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CampaignsController_pause: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CampaignsController_resume: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getCampaignProgress: {
        parameters: {
            query?: {
                /** @description The width of a bucket (UTC). */
                interval?: "minute" | "hour" | "day";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignProgressDto"];
                };
            };
        };
    };
    CreditsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CreditsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateCreditsDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CreditsController_topups: {
        parameters: {
            query?: {
                /** @description 1 to 100, default 20 */
                limit?: string;
                /** @description A top-up id: the page after it */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CreditsController_topup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTopupDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CreditsController_getTopup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    AdminCreditsController_grant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GrantCreditDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    VoicesController_list: {
        parameters: {
            query?: {
                /** @description 1 to 100, default 20 */
                limit?: string;
                /** @description A voice id: the page after it */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    VoicesController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** @example Support voice */
                    name: string;
                    /** @description WAV, FLAC, MP3 or Ogg (Vorbis, Opus) recordings of one voice, each at most 20 MB; training needs at least 3 of 30 seconds each, each at most 10 minutes long and at most 30 minutes together (by default). A tenant over its voice or storage quota gets a 422. */
                    samples: string[];
                };
            };
        };
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    VoicesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    VoicesController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    RoomsController_list: {
        parameters: {
            query?: {
                status?: "created" | "landing_viewed" | "joined" | "completed" | "expired" | "failed";
                /** @description 1 to 100, default 20 */
                limit?: string;
                /** @description A room id: the page after it */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    RoomsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRoomDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    RoomsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                room_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    PhoneNumbersController_list: {
        parameters: {
            query?: {
                /** @description 1 to 100, default 20 */
                limit?: string;
                /** @description A phone number id: the page after it */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    PhoneNumbersController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePhoneNumberDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    PhoneNumbersController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    PhoneNumbersController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    PhoneNumbersController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePhoneNumberDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    PhoneNumbersController_testInboundCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestInboundCallDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    PhoneNumbersController_requestVerification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    PhoneNumbersController_confirmVerification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConfirmVerificationDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    AdminPhoneNumbersController_assign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AssignPhoneNumberDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    DashboardLinksController_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    DashboardLinksController_endSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "session.created": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "session.created";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "session.created",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "session_id": "ses_01jf8z6q4m2x7c9v3b5n",
                 *         "to_number": "+14155550100",
                 *         "from_number": "+14155550199",
                 *         "campaign_id": "cmp_01jf8yk2w9e5r1t7y3u6",
                 *         "contact_id": "con_01jf8ymc5v2b8n4m6q0w",
                 *         "voice_id": "voi_01jf8x3e7r9t1y5u2i8o",
                 *         "status": "queued"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "session.created";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        session_id: string;
                        /** @description International format with a leading +; null for a WebRTC room session. */
                        to_number: string | null;
                        /** @description International format with a leading +; null for a WebRTC room session. */
                        from_number: string | null;
                        /** @description Set when the session belongs to a campaign contact. */
                        campaign_id?: string | null;
                        /** @description Set when the session belongs to a campaign contact. */
                        contact_id?: string | null;
                        /** @description Voice used by the agent. */
                        voice_id: string;
                        /** @enum {string} */
                        status: "queued";
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "session.started": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "session.started";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "session.started",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "session_id": "ses_01jf8z6q4m2x7c9v3b5n",
                 *         "started_at": "2026-03-02T17:04:05.120Z"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "session.started";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        session_id: string;
                        /** Format: date-time */
                        started_at: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "session.ended": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "session.ended";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "session.ended",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "session_id": "ses_01jf8z6q4m2x7c9v3b5n",
                 *         "client_reference_id": null,
                 *         "campaign_id": "cmp_01jf8yk2w9e5r1t7y3u6",
                 *         "contact_id": "con_01jf8ymc5v2b8n4m6q0w",
                 *         "from_number": "+14155550199",
                 *         "to_number": "+14155550100",
                 *         "phone_number": "+14155550100",
                 *         "email": "ada@example.com",
                 *         "first_name": "Ada",
                 *         "last_name": "Lovelace",
                 *         "status": "completed",
                 *         "end_reason": "completed",
                 *         "started_at": "2026-03-02T17:04:05.120Z",
                 *         "ended_at": "2026-03-02T17:05:12.480Z",
                 *         "duration_seconds": 67,
                 *         "actual_cost_cents": 20,
                 *         "transcript": [
                 *           {
                 *             "role": "agent",
                 *             "content": "Hi Ada, this is Sam from Acme Dental. Do you have a minute?",
                 *             "t": 0.4
                 *           },
                 *           {
                 *             "role": "user",
                 *             "content": "Sure, go ahead.",
                 *             "t": 4.1
                 *           },
                 *           {
                 *             "role": "agent",
                 *             "content": "You are booked for Tuesday at 10 am.",
                 *             "t": 7.9
                 *           }
                 *         ],
                 *         "transcript_url": "https://api.example.com/v1/sessions/ses_01jf8z6q4m2x7c9v3b5n/transcript.json",
                 *         "function_invocations": [
                 *           {
                 *             "name": "book_appointment",
                 *             "status": "succeeded",
                 *             "duration_ms": 412
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "session.ended";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        session_id: string;
                        /** @description Reference passed when the room was created; null when none was passed. */
                        client_reference_id: string | null;
                        /** @description Set when the session belongs to a campaign contact. */
                        campaign_id?: string | null;
                        /** @description Set when the session belongs to a campaign contact. */
                        contact_id?: string | null;
                        /** @description International format with a leading +; null for a WebRTC room session. */
                        from_number: string | null;
                        /** @description International format with a leading +; null for a WebRTC room session. */
                        to_number: string | null;
                        /** @description International format with a leading +; null for a WebRTC room session. */
                        phone_number: string | null;
                        email?: string | null;
                        first_name?: string | null;
                        last_name?: string | null;
                        /** @enum {string} */
                        status: "completed";
                        /** @description Why the session ended, e.g. completed or no_answer (not a closed set). */
                        end_reason: string;
                        /** Format: date-time */
                        started_at: string;
                        /** Format: date-time */
                        ended_at: string;
                        /** @description 0 for a call that never connected. */
                        duration_seconds: number;
                        /** @description Metered cost in cents; 0 for a call that never connected. */
                        actual_cost_cents: number;
                        /** @description Empty array when there is none. */
                        transcript: {
                            /** @enum {string} */
                            role: "agent" | "user";
                            /** @description What was said; never empty. A turn without words (one that is only a tool call) is not kept: the call is in function_invocations. Absent only on a private session's turns (a number verification call), whose words are not kept. */
                            content?: string;
                            /** @description Seconds from session start. */
                            t?: number;
                        }[];
                        /** @description `{base_url}/v1/sessions/<session_id>/transcript.json`; null when there is no transcript. */
                        transcript_url?: string | null;
                        /** @description Summary of agent function calls. */
                        function_invocations: {
                            name: string;
                            /** @description Outcome of the call, e.g. succeeded. */
                            status: string;
                            duration_ms: number;
                        }[];
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "session.failed": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "session.failed";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "session.failed",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "session_id": "ses_01jf8zc7d3f5g7h9j1k3",
                 *         "client_reference_id": null,
                 *         "campaign_id": "cmp_01jf8yk2w9e5r1t7y3u6",
                 *         "contact_id": "con_01jf8ymd8c1x3z5v7b9n",
                 *         "from_number": "+14155550199",
                 *         "to_number": "+14155550101",
                 *         "phone_number": "+14155550101",
                 *         "email": null,
                 *         "first_name": "Grace",
                 *         "last_name": "Hopper",
                 *         "status": "no_answer",
                 *         "end_reason": "no_answer",
                 *         "started_at": null,
                 *         "ended_at": "2026-03-02T17:05:35.000Z",
                 *         "duration_seconds": 0,
                 *         "actual_cost_cents": 0,
                 *         "transcript": [],
                 *         "transcript_url": null,
                 *         "function_invocations": []
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "session.failed";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        session_id: string;
                        /** @description Reference passed when the room was created; null when none was passed. */
                        client_reference_id: string | null;
                        /** @description Set when the session belongs to a campaign contact. */
                        campaign_id?: string | null;
                        /** @description Set when the session belongs to a campaign contact. */
                        contact_id?: string | null;
                        /** @description International format with a leading +; null for a WebRTC room session. */
                        from_number: string | null;
                        /** @description International format with a leading +; null for a WebRTC room session. */
                        to_number: string | null;
                        /** @description International format with a leading +; null for a WebRTC room session. */
                        phone_number: string | null;
                        email?: string | null;
                        first_name?: string | null;
                        last_name?: string | null;
                        /** @enum {string} */
                        status: "failed" | "no_answer" | "voicemail" | "busy";
                        /** @description Why the session ended, e.g. completed or no_answer (not a closed set). */
                        end_reason: string;
                        /**
                         * Format: date-time
                         * @description Absent or null when the call never connected.
                         */
                        started_at?: string | null;
                        /** Format: date-time */
                        ended_at: string;
                        /** @description 0 for a call that never connected. */
                        duration_seconds: number;
                        /** @description Metered cost in cents; 0 for a call that never connected. */
                        actual_cost_cents: number;
                        /** @description Empty array when there is none. */
                        transcript: {
                            /** @enum {string} */
                            role: "agent" | "user";
                            /** @description What was said; never empty. A turn without words (one that is only a tool call) is not kept: the call is in function_invocations. Absent only on a private session's turns (a number verification call), whose words are not kept. */
                            content?: string;
                            /** @description Seconds from session start. */
                            t?: number;
                        }[];
                        /** @description `{base_url}/v1/sessions/<session_id>/transcript.json`; null when there is no transcript. */
                        transcript_url?: string | null;
                        /** @description Summary of agent function calls. */
                        function_invocations: {
                            name: string;
                            /** @description Outcome of the call, e.g. succeeded. */
                            status: string;
                            duration_ms: number;
                        }[];
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "session.disposition_set": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "session.disposition_set";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "session.disposition_set",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "session_id": "ses_01jf8z6q4m2x7c9v3b5n",
                 *         "campaign_id": "cmp_01jf8yk2w9e5r1t7y3u6",
                 *         "contact_id": "con_01jf8ymc5v2b8n4m6q0w",
                 *         "disposition_code": "appointment_booked",
                 *         "disposition_note": "Booked for Tuesday at 10 am.",
                 *         "evaluated_at": "2026-03-02T17:05:20.904Z",
                 *         "evaluator": "llm",
                 *         "model": "gpt-4o-mini"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "session.disposition_set";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        session_id: string;
                        campaign_id: string;
                        contact_id: string;
                        disposition_code: string;
                        /** @description null when the evaluator gave no note. */
                        disposition_note: string | null;
                        /** Format: date-time */
                        evaluated_at: string;
                        /** @description Who derived the disposition: llm (a language model) or simulator (the built-in deterministic evaluator, used for test-mode calls and when no model is configured). */
                        evaluator: string;
                        /** @description The model the llm evaluator asked (`LLM_MODEL`); null for the built-in evaluator. */
                        model?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "session.recording_completed": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "session.recording_completed";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "session.recording_completed",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "session_id": "ses_01jf8z6q4m2x7c9v3b5n",
                 *         "campaign_id": "cmp_01jf8yk2w9e5r1t7y3u6",
                 *         "contact_id": "con_01jf8ymc5v2b8n4m6q0w",
                 *         "from_number": "+14155550199",
                 *         "to_number": "+14155550100",
                 *         "phone_number": "+14155550100",
                 *         "email": "ada@example.com",
                 *         "first_name": "Ada",
                 *         "last_name": "Lovelace",
                 *         "recording_id": "rec_01jf8zk3p5a7s9d1f3g5",
                 *         "status": "completed",
                 *         "channels": "dual",
                 *         "started_at": "2026-03-02T17:04:05.120Z",
                 *         "ended_at": "2026-03-02T17:05:12.480Z",
                 *         "duration_seconds": 67,
                 *         "recording_url": "https://api.example.com/recordings/rec_01jf8zk3p5a7s9d1f3g5.wav?expires=1773076000&signature=0rZ7qvzb3iC1pXhJm5wQ8dT2kLaNfYgUo4sEcV6yB9M"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "session.recording_completed";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        session_id: string;
                        /** @description Set when the session belongs to a campaign contact. */
                        campaign_id?: string | null;
                        /** @description Set when the session belongs to a campaign contact. */
                        contact_id?: string | null;
                        /** @description International format with a leading +; null for a WebRTC room session. */
                        from_number: string | null;
                        /** @description International format with a leading +; null for a WebRTC room session. */
                        to_number: string | null;
                        /** @description International format with a leading +; null for a WebRTC room session. */
                        phone_number: string | null;
                        email?: string | null;
                        first_name?: string | null;
                        last_name?: string | null;
                        recording_id: string;
                        /** @description Recording status, e.g. completed. */
                        status: string;
                        /** @description e.g. dual. */
                        channels: string;
                        /** Format: date-time */
                        started_at?: string | null;
                        /** Format: date-time */
                        ended_at?: string | null;
                        duration_seconds?: number | null;
                        /** @description Signed link to the file under `{recordings_url}`, valid for `RECORDING_URL_TTL` (default 7 days); `GET /v1/sessions/{session_id}/recording` gives a fresh one. Answers 404 once purged. */
                        recording_url: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "session.transfer_initiated": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "session.transfer_initiated";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "session.transfer_initiated",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "session_id": "ses_01jf8z6q4m2x7c9v3b5n",
                 *         "to_number": "+14155550100",
                 *         "from_number": "+14155550199",
                 *         "transfer_number": "+14155550142",
                 *         "transferred_at": "2026-03-02T17:04:48.310Z"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "session.transfer_initiated";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        session_id: string;
                        /** @description International format with a leading +; null for a WebRTC room session. */
                        to_number: string | null;
                        /** @description International format with a leading +; null for a WebRTC room session. */
                        from_number: string | null;
                        /** @description Number of the human the call is transferred to. International format with a leading +. */
                        transfer_number: string;
                        /** Format: date-time */
                        transferred_at: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "session.opt_out_detected": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "session.opt_out_detected";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "session.opt_out_detected",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "session_id": "ses_01jf8z6q4m2x7c9v3b5n",
                 *         "phone_number": "+14155550100",
                 *         "detected_at": "2026-03-02T17:04:31.007Z"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "session.opt_out_detected";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        session_id: string;
                        /** @description International format with a leading +; null for a WebRTC room session. Added to the tenant's do-not-call list. */
                        phone_number: string | null;
                        /** Format: date-time */
                        detected_at: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "session.opt_out_recording_pending_purge": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "session.opt_out_recording_pending_purge";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "session.opt_out_recording_pending_purge",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "session_id": "ses_01jf8z6q4m2x7c9v3b5n",
                 *         "recording_id": "rec_01jf8zk3p5a7s9d1f3g5",
                 *         "purge_after": "2026-03-09T17:05:40.000Z"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "session.opt_out_recording_pending_purge";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        session_id: string;
                        recording_id: string;
                        /**
                         * Format: date-time
                         * @description End of the grace window (7 days by default).
                         */
                        purge_after: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "session.opt_out_recording_purged": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "session.opt_out_recording_purged";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "session.opt_out_recording_purged",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "session_id": "ses_01jf8z6q4m2x7c9v3b5n",
                 *         "recording_id": "rec_01jf8zk3p5a7s9d1f3g5",
                 *         "purged_at": "2026-03-09T17:05:41.215Z"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "session.opt_out_recording_purged";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        session_id: string;
                        recording_id: string;
                        /** Format: date-time */
                        purged_at: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "session.consent_refused": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "session.consent_refused";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "session.consent_refused",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "session_id": "ses_01jf8z6q4m2x7c9v3b5n",
                 *         "refused_at": "2026-03-02T17:04:09.650Z"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "session.consent_refused";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        session_id: string;
                        /** Format: date-time */
                        refused_at: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "campaign.created": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "campaign.created";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "campaign.created",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "campaign_id": "cmp_01jf8yk2w9e5r1t7y3u6",
                 *         "name": "March recall",
                 *         "channel": "phone_call",
                 *         "session_type": "phone_call"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "campaign.created";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        campaign_id: string;
                        name: string;
                        /** @description e.g. phone_call. */
                        channel: string;
                        /** @description e.g. phone_call. */
                        session_type: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "campaign.started": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "campaign.started";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "campaign.started",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "campaign_id": "cmp_01jf8yk2w9e5r1t7y3u6",
                 *         "started_at": "2026-03-02T17:00:00.000Z"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "campaign.started";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        campaign_id: string;
                        /** Format: date-time */
                        started_at: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "campaign.paused": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "campaign.paused";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "campaign.paused",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "campaign_id": "cmp_01jf8yk2w9e5r1t7y3u6",
                 *         "paused_at": "2026-03-02T18:30:00.000Z",
                 *         "reason": "manual"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "campaign.paused";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        campaign_id: string;
                        /** Format: date-time */
                        paused_at: string;
                        /** @description e.g. manual. */
                        reason: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "campaign.paused_quiet_hours": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "campaign.paused_quiet_hours";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "campaign.paused_quiet_hours",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "campaign_id": "cmp_01jf8yk2w9e5r1t7y3u6",
                 *         "paused_at": "2026-03-03T05:00:00.000Z",
                 *         "next_open_at": "2026-03-03T16:00:00.000Z"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "campaign.paused_quiet_hours";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        campaign_id: string;
                        /** Format: date-time */
                        paused_at: string;
                        /**
                         * Format: date-time
                         * @description When the earliest remaining contact can be called again.
                         */
                        next_open_at: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "campaign.resumed": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "campaign.resumed";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "campaign.resumed",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "campaign_id": "cmp_01jf8yk2w9e5r1t7y3u6",
                 *         "resumed_at": "2026-03-03T16:00:00.000Z",
                 *         "reason": "quiet_hours_ended"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "campaign.resumed";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        campaign_id: string;
                        /** Format: date-time */
                        resumed_at: string;
                        /** @enum {string} */
                        reason: "quiet_hours_ended" | "manual";
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "campaign.completed": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "campaign.completed";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "campaign.completed",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "campaign_id": "cmp_01jf8yk2w9e5r1t7y3u6",
                 *         "completed_at": "2026-03-03T19:12:44.501Z",
                 *         "total_contacts": 250,
                 *         "completed_sessions": 171,
                 *         "failed_sessions": 64
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "campaign.completed";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        campaign_id: string;
                        /** Format: date-time */
                        completed_at: string;
                        total_contacts: number;
                        completed_sessions: number;
                        failed_sessions: number;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "campaign.contact_dispatched": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "campaign.contact_dispatched";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "campaign.contact_dispatched",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "contact_id": "con_01jf8ymc5v2b8n4m6q0w",
                 *         "campaign_id": "cmp_01jf8yk2w9e5r1t7y3u6",
                 *         "phone_number": "+14155550100",
                 *         "email": "ada@example.com",
                 *         "first_name": "Ada",
                 *         "last_name": "Lovelace",
                 *         "delivery_row_id": "ses_01jf8z6q4m2x7c9v3b5n"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "campaign.contact_dispatched";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        contact_id: string;
                        campaign_id: string;
                        /** @description As given for the contact; international format with a leading + unless skipped as invalid. */
                        phone_number: string;
                        /** @description Copied from the contact; null when the contact has none. */
                        email: string | null;
                        /** @description Copied from the contact; null when the contact has none. */
                        first_name: string | null;
                        /** @description Copied from the contact; null when the contact has none. */
                        last_name: string | null;
                        /** @description The session id for phone campaigns. */
                        delivery_row_id: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "campaign.contact_completed": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "campaign.contact_completed";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "campaign.contact_completed",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "contact_id": "con_01jf8ymc5v2b8n4m6q0w",
                 *         "campaign_id": "cmp_01jf8yk2w9e5r1t7y3u6",
                 *         "phone_number": "+14155550100",
                 *         "email": "ada@example.com",
                 *         "first_name": "Ada",
                 *         "last_name": "Lovelace",
                 *         "session_id": "ses_01jf8z6q4m2x7c9v3b5n",
                 *         "duration_seconds": 67,
                 *         "actual_cost_cents": 20
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "campaign.contact_completed";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        contact_id: string;
                        campaign_id: string;
                        /** @description As given for the contact; international format with a leading + unless skipped as invalid. */
                        phone_number: string;
                        /** @description Copied from the contact; null when the contact has none. */
                        email: string | null;
                        /** @description Copied from the contact; null when the contact has none. */
                        first_name: string | null;
                        /** @description Copied from the contact; null when the contact has none. */
                        last_name: string | null;
                        session_id: string;
                        duration_seconds: number;
                        actual_cost_cents: number;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "campaign.contact_failed": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "campaign.contact_failed";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "campaign.contact_failed",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "contact_id": "con_01jf8ymd8c1x3z5v7b9n",
                 *         "campaign_id": "cmp_01jf8yk2w9e5r1t7y3u6",
                 *         "phone_number": "+14155550101",
                 *         "email": null,
                 *         "first_name": "Grace",
                 *         "last_name": "Hopper",
                 *         "session_id": "ses_01jf8zc7d3f5g7h9j1k3",
                 *         "duration_seconds": 0,
                 *         "actual_cost_cents": 0
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "campaign.contact_failed";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        contact_id: string;
                        campaign_id: string;
                        /** @description As given for the contact; international format with a leading + unless skipped as invalid. */
                        phone_number: string;
                        /** @description Copied from the contact; null when the contact has none. */
                        email: string | null;
                        /** @description Copied from the contact; null when the contact has none. */
                        first_name: string | null;
                        /** @description Copied from the contact; null when the contact has none. */
                        last_name: string | null;
                        session_id: string;
                        duration_seconds: number;
                        actual_cost_cents: number;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "campaign.contact_skipped": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "campaign.contact_skipped";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "campaign.contact_skipped",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "contact_id": "con_01jf8ymf2m4n6b8v0c2x",
                 *         "campaign_id": "cmp_01jf8yk2w9e5r1t7y3u6",
                 *         "phone_number": "+14155550188",
                 *         "email": null,
                 *         "first_name": null,
                 *         "last_name": null,
                 *         "skip_reason": "dnc_blocked"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "campaign.contact_skipped";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        contact_id: string;
                        campaign_id: string;
                        /** @description As given for the contact; international format with a leading + unless skipped as invalid. */
                        phone_number: string;
                        /** @description Copied from the contact; null when the contact has none. */
                        email: string | null;
                        /** @description Copied from the contact; null when the contact has none. */
                        first_name: string | null;
                        /** @description Copied from the contact; null when the contact has none. */
                        last_name: string | null;
                        /** @enum {string} */
                        skip_reason: "invalid" | "dnc_blocked" | "daily_cap_reached" | "quiet_hours_expired" | "concurrency_full" | "tenant_suspended";
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "credits.low_balance": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "credits.low_balance";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "credits.low_balance",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "balance_cents": 480,
                 *         "threshold_cents": 500,
                 *         "currency": "USD"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "credits.low_balance";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        /** @description Balance in cents. */
                        balance_cents: number;
                        /** @description Warning threshold in cents. */
                        threshold_cents: number;
                        /** @description ISO 4217 code, e.g. USD. */
                        currency: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "credits.depleted": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "credits.depleted";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "credits.depleted",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "balance_cents": 0,
                 *         "depleted_at": "2026-03-02T21:47:03.118Z",
                 *         "currency": "USD"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "credits.depleted";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        /** @description Balance in cents: 0 or below. */
                        balance_cents: number;
                        /** Format: date-time */
                        depleted_at: string;
                        /** @description ISO 4217 code, e.g. USD. */
                        currency: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "credits.topup_succeeded": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "credits.topup_succeeded";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "credits.topup_succeeded",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "amount_cents": 5000,
                 *         "new_balance_cents": 5000,
                 *         "currency": "USD",
                 *         "processor_payment_intent_id": "pi_3PqL8m2eZvKYlo2C1x9a7b5c"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "credits.topup_succeeded";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        /** @description Amount added, in cents. */
                        amount_cents: number;
                        /** @description Balance after the top-up, in cents. */
                        new_balance_cents: number;
                        /** @description ISO 4217 code, e.g. USD. */
                        currency: string;
                        processor_payment_intent_id: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "voice_clone.training_started": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "voice_clone.training_started";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "voice_clone.training_started",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "voice_id": "voi_01jf8x3e7r9t1y5u2i8o",
                 *         "name": "Support voice",
                 *         "samples": 4
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "voice_clone.training_started";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        voice_id: string;
                        name: string;
                        /** @description Number of uploaded samples. */
                        samples: number;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "voice_clone.training_succeeded": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "voice_clone.training_succeeded";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "voice_clone.training_succeeded",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "voice_id": "voi_01jf8x3e7r9t1y5u2i8o",
                 *         "name": "Support voice",
                 *         "ready_at": "2026-03-01T09:14:52.330Z"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "voice_clone.training_succeeded";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        voice_id: string;
                        name: string;
                        /** Format: date-time */
                        ready_at: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "voice_clone.training_failed": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "voice_clone.training_failed";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "voice_clone.training_failed",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "voice_id": "voi_01jf8x4r2t6y8u0i2o4p",
                 *         "name": "Sales voice",
                 *         "error_code": "insufficient_samples",
                 *         "error_message": "At least 3 samples of 30 seconds each are needed."
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "voice_clone.training_failed";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        voice_id: string;
                        name: string;
                        /** @enum {string} */
                        error_code: "insufficient_samples" | "sample_too_short" | "sample_too_quiet" | "voice_clone_disabled_on_plan" | "sample_too_long" | "samples_too_long" | "decode_timeout" | "decode_failed";
                        /** @description Free text. */
                        error_message: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "room.created": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "room.created";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "room.created",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "room_id": "room_01jf8za8h2j4k6l8z0x2",
                 *         "room_url": "https://api.example.com/rooms/room_01jf8za8h2j4k6l8z0x2?token=eyJyIjoicm9vbV8wMWpmOHphOGgyajRrNmw4ejB4MiJ9.c2ln",
                 *         "expires_at": "2026-03-02T18:00:00.000Z",
                 *         "participant_id": "par_01jf8za8q1w3e5r7t9y1",
                 *         "client_reference_id": "order-84213"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "room.created";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        room_id: string;
                        /** @description Signed link for the participant: `{rooms_url}/<room_id>?token=…`. */
                        room_url: string;
                        /** Format: date-time */
                        expires_at: string;
                        /** @description Optional on every room event, to join on. */
                        participant_id?: string | null;
                        /** @description Optional on every room event, to join on. */
                        client_reference_id?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "room.landing_viewed": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "room.landing_viewed";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "room.landing_viewed",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "room_id": "room_01jf8za8h2j4k6l8z0x2",
                 *         "viewed_at": "2026-03-02T17:10:02.775Z"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "room.landing_viewed";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        room_id: string;
                        /** Format: date-time */
                        viewed_at: string;
                        /** @description Optional on every room event, to join on. */
                        participant_id?: string | null;
                        /** @description Optional on every room event, to join on. */
                        client_reference_id?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "room.joined": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "room.joined";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "room.joined",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "room_id": "room_01jf8za8h2j4k6l8z0x2",
                 *         "participant_id": "par_01jf8za8q1w3e5r7t9y1",
                 *         "joined_at": "2026-03-02T17:10:09.412Z",
                 *         "client_reference_id": "order-84213"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "room.joined";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        room_id: string;
                        participant_id: string;
                        /** Format: date-time */
                        joined_at: string;
                        /** @description Optional on every room event, to join on. */
                        client_reference_id?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "room.completed": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "room.completed";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "room.completed",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "room_id": "room_01jf8za8h2j4k6l8z0x2",
                 *         "completed_at": "2026-03-02T17:14:21.090Z",
                 *         "duration_seconds": 251,
                 *         "participant_id": "par_01jf8za8q1w3e5r7t9y1",
                 *         "client_reference_id": "order-84213"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "room.completed";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        room_id: string;
                        /** Format: date-time */
                        completed_at: string;
                        /** @description End time minus join time. */
                        duration_seconds: number;
                        /** @description Optional on every room event, to join on. */
                        participant_id?: string | null;
                        /** @description Optional on every room event, to join on. */
                        client_reference_id?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "room.expired": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "room.expired";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "room.expired",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "room_id": "room_01jf8zf4g6h8j0k2l4z6",
                 *         "expired_at": "2026-03-02T18:00:00.000Z"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "room.expired";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        room_id: string;
                        /** Format: date-time */
                        expired_at: string;
                        /** @description Optional on every room event, to join on. */
                        participant_id?: string | null;
                        /** @description Optional on every room event, to join on. */
                        client_reference_id?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "room.failed": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "room.failed";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "room.failed",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "room_id": "room_01jf8zg8x0c2v4b6n8m0",
                 *         "error_code": "agent_unreachable",
                 *         "error_message": "The agent did not answer within 10 seconds."
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "room.failed";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        room_id: string;
                        /** @description e.g. agent_unreachable (not a closed set). */
                        error_code: string;
                        /** @description Free text. */
                        error_message: string;
                        /** @description Optional on every room event, to join on. */
                        participant_id?: string | null;
                        /** @description Optional on every room event, to join on. */
                        client_reference_id?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "number.answer_rate_degraded": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "number.answer_rate_degraded";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "number.answer_rate_degraded",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "phone_number": "+14155550199",
                 *         "answer_rate": 0.62,
                 *         "window_start": "2026-03-01T17:00:00.000Z",
                 *         "window_end": "2026-03-02T17:00:00.000Z"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "number.answer_rate_degraded";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        /** @description International format with a leading +. */
                        phone_number: string;
                        /** @description Answered share of inbound calls over the window, between 0 and 1. */
                        answer_rate: number;
                        /** Format: date-time */
                        window_start: string;
                        /** Format: date-time */
                        window_end: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "function.timeout": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "function.timeout";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "function.timeout",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "session_id": "ses_01jf8z6q4m2x7c9v3b5n",
                 *         "function_id": "fn_lookup_order",
                 *         "name": "lookup_order",
                 *         "timeout_ms": 5000
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "function.timeout";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        session_id: string;
                        function_id: string;
                        name: string;
                        timeout_ms: number;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "webhook.test";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "webhook.test",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "endpoint_id": "we_01jf8w2c4v6b8n0m2q4w",
                 *         "emitted_at": "2026-03-02T16:58:00.250Z"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "webhook.test";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        endpoint_id: string;
                        /** Format: date-time */
                        emitted_at: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhook.endpoint_disabled_notice": {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` followed by the lower-case hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` secret. Compare in constant time, prefix included. */
                "X-Webhook-Signature": string;
                /** @description Unix seconds used in the signing base. Reject deliveries more than 300 seconds away from your clock. */
                "X-Webhook-Timestamp": string;
                /** @description Same as the body `id`. */
                "X-Webhook-Id": string;
                /** @description Same as the body `type`, to route before parsing. */
                "X-Webhook-Event": "webhook.endpoint_disabled_notice";
                /** @description Standard Webhooks: same as the body `id`. */
                "webhook-id": string;
                /** @description Standard Webhooks: same value as X-Webhook-Timestamp. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` followed by the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event envelope. Verify the signatures against these exact bytes before parsing. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71",
                 *       "type": "webhook.endpoint_disabled_notice",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "endpoint_id": "we_01jf8w2c4v6b8n0m2q4w",
                 *         "url": "https://hooks.example.com/voice",
                 *         "disabled_at": "2026-03-03T11:20:07.981Z",
                 *         "failure_streak": 10,
                 *         "last_status": 503
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Unique event id (UUIDv7). Redeliveries carry the same id: use it for idempotency.
                     */
                    id: string;
                    /** @constant */
                    type: "webhook.endpoint_disabled_notice";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        endpoint_id: string;
                        url: string;
                        /** Format: date-time */
                        disabled_at: string;
                        /** @description Consecutive permanently failed deliveries. */
                        failure_streak: number;
                        /** @description HTTP status of the last failed delivery; null when it got no response (timeout or network error). */
                        last_status: number | null;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the delivery fails and the endpoint is suspended at once. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Acknowledged: any 2xx status counts as delivered; the response body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 5xx, 408, 429, timeouts (15 s by default) and network errors are retried with backoff for up to 24 hours, honouring Retry-After; any other status fails the delivery at once. Redirects are not followed. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}

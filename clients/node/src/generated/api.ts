// Generated from openapi.json (the service's /openapi.json) by `npm run client:generate`. Do not edit.

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Answers 200 once the service accepts requests; it checks nothing else.
         */
        get: operations["health"];
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
        /**
         * Readiness
         * @description Each dependency’s state (database, event store, projections), 503 when one is down; and the conversations this instance carries against its capacity.
         */
        get: operations["ready"];
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
        /**
         * List dead letters
         * @description Events a processor could not apply after its retries, newest first.
         */
        get: operations["listDeadLetters"];
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
        /**
         * Get a dead letter
         * @description One dead letter: the event, the processor and the last error.
         */
        get: operations["getDeadLetter"];
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
        /**
         * Retry a dead letter
         * @description Replays the event through its processor now; a processor that still fails is a 422 and the dead letter is kept.
         */
        post: operations["retryDeadLetter"];
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
        /**
         * Rebuild projections
         * @description Rebuilds one read model (or every rebuildable one) from the event store, while the service runs.
         */
        post: operations["rebuildProjections"];
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
        /**
         * Create a tenant
         * @description A new tenant and its first API key, shown this once (a replay under the same Idempotency-Key is a 409).
         */
        post: operations["createTenant"];
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
        /**
         * Issue an API key
         * @description Another key for the tenant, shown this once; the other keys keep working.
         */
        post: operations["issueApiKey"];
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
        /**
         * Revoke an API key
         * @description The key stops working at once, on every instance.
         */
        delete: operations["revokeApiKey"];
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
        /**
         * Suspend a tenant
         * @description Its writes are refused (403) and its dashboard sessions end; reads keep working.
         */
        post: operations["suspendTenant"];
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
        /**
         * Reactivate a tenant
         * @description Lifts a suspension.
         */
        post: operations["reactivateTenant"];
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
        /**
         * List the tenant’s events
         * @description The tenant’s events in commit order, as the webhook envelopes (same ids and bodies): a feed to read from a cursor (`after`), with `wait` holding the request up to that many seconds for new ones. At most 10 such requests are held at once per tenant (429 beyond).
         */
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
        /**
         * List webhook endpoints
         * @description Every endpoint of the tenant, with its status and failure streak (never its secret).
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Create a webhook endpoint
         * @description Registers a URL to receive signed deliveries of the events it subscribes to (default `*`). The answer carries the signing secret, shown this once; a replay under the same Idempotency-Key is a 409 that says so. The URL must be public HTTPS unless WEBHOOK_ALLOW_PRIVATE_URLS is set.
         */
        post: operations["createWebhookEndpoint"];
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
        /**
         * Get a webhook endpoint
         * @description One endpoint, with its status and failure streak (never its secret).
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description No delivery is attempted to it any more.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Update a webhook endpoint
         * @description Changes its URL, events or description (null clears it); fields not sent are kept.
         */
        patch: operations["updateWebhookEndpoint"];
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
        /**
         * Rotate a webhook endpoint’s secret
         * @description Replaces the signing secret; the new one is shown this once and signs every delivery from now on.
         */
        post: operations["rotateWebhookSecret"];
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
        /**
         * Send a test event
         * @description Queues a `webhook.test` event for this endpoint only; it is delivered and signed like any other.
         */
        post: operations["sendWebhookTest"];
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
        /**
         * Re-enable a suspended webhook endpoint
         * @description Makes a suspended endpoint active again; its pending deliveries are attempted at once.
         */
        post: operations["enableWebhookEndpoint"];
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
        /**
         * List a webhook endpoint’s deliveries
         * @description The latest deliveries to the endpoint, newest first, each with its attempts.
         */
        get: operations["listWebhookDeliveries"];
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
        /**
         * Retry a delivery
         * @description Queues the delivery for another attempt now; a delivery whose attempt is in flight is a 409.
         */
        post: operations["retryWebhookDelivery"];
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
        /**
         * Redeliver what failed since a time
         * @description Queues again every delivery to the endpoint created since `since` that did not succeed.
         */
        post: operations["recoverWebhookDeliveries"];
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
        /**
         * Get a delivery
         * @description One delivery: the payload sent and each attempt with the receiver’s answer.
         */
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
        /**
         * Delivery figures per endpoint
         * @description Per webhook endpoint: the deliveries created in the last days, by outcome, and the success rate.
         */
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
        /**
         * Place an outbound call
         * @description Queues a call from `from` to `to` with the agent of `agent_config`, and answers at once with its session (`queued`); the outcome arrives as `session.*` events. `test_mode` plays it on the test pool: no carrier, no credits. A production call’s `from` must be an active phone number of the tenant (assigned by the operator or verified), else 422 `from_number_not_owned` and nothing is dialled; a test call may use any number. A production call waits while the credit balance is depleted, up to MAX_QUEUED_CALLS_PER_TENANT calls (then 429). A tenant runs at most 4 test calls with `test_persona` at once, queued or in progress (then 429, with `Retry-After`); a persona call placed while the platform carries all the conversations it can is refused (503 `at_capacity`, with `Retry-After`).
         */
        post: operations["placeCall"];
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
        /**
         * List sessions
         * @description The tenant’s sessions (calls and room conversations), newest first, filtered by status, campaign or direction.
         */
        get: operations["listSessions"];
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
        /**
         * Get a session
         * @description A session as it is now: status, parties, transcript, cost, disposition and recording.
         */
        get: operations["getSession"];
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
        /**
         * Get a session’s transcript
         * @description The transcript alone: one entry per turn, `role`, `content` and `t` (seconds from the start); keys the caller pressed are a user turn with `dtmf` and empty `content`.
         */
        get: operations["getSessionTranscript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a session live (Server-Sent Events)
         * @description The session as it happens, as `text/event-stream`: `status` (queued, in_progress, who answered, a transfer and its failure), `turn` (each transcript entry), `metrics` (each agent turn’s latency breakdown), `function_call` (each tool call), `partial_transcript` (`{role: "user", content, t}`: the words heard so far of the caller’s utterance in progress, from a streaming recogniser; not stored, no `id`, best effort, at most one per 100 ms) and `ended` (the final status), after which the stream closes (at once for a session that has ended). Each stored event’s `id` is its place in the session’s stream: reconnect with `Last-Event-ID` to go on from there. A comment line every 15 s keeps it open.
         */
        get: operations["followSessionLive"];
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
        /**
         * List a session’s events
         * @description Every catalog event of the session, oldest first, as the webhook envelopes deliver them.
         */
        get: operations["listSessionEvents"];
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
        /**
         * Get a fresh link to a session’s recording
         * @description Redirects (302) to a newly signed link to the recording’s WAV file, the link also in the body, so that an expired link can be renewed (`curl -L` gets the file). 404 while there is no recording, and once it is purged.
         */
        get: operations["getSessionRecording"];
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
        /**
         * Download a recording
         * @description The recording’s WAV file, behind an expiring signed link (a session’s `recording.recording_url`). The link is the credential: no API key. An unsigned or altered link is a 403, an expired one a 410 (renew it with GET /v1/sessions/{id}/recording), a purged recording a 404.
         */
        get: operations["getRecordingFile"];
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
        /**
         * Call figures per day
         * @description Calls per UTC day: counts by status, answer rate, average duration and spend.
         */
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
        /**
         * List the do-not-call list
         * @description Every number never dialled for the tenant: added by the API or by opt-outs detected on calls.
         */
        get: operations["listDnc"];
        put?: never;
        /**
         * Add a number to the do-not-call list
         * @description The number is never dialled again for the tenant (campaign contacts with it are skipped). Adding it twice is harmless.
         */
        post: operations["addDnc"];
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
        /**
         * Remove a number from the do-not-call list
         * @description The number may be dialled again.
         */
        delete: operations["removeDnc"];
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
        /**
         * List campaigns
         * @description The tenant’s campaigns, newest first.
         */
        get: operations["listCampaigns"];
        put?: never;
        /**
         * Create a campaign
         * @description A campaign in `draft`, with its contacts if given (more may be added); start it with /start. Contacts on the do-not-call list, with an invalid number or a duplicate are kept and skipped when dialled. A production campaign’s `from_number` must be an active phone number of the tenant (assigned by the operator or verified), else 422 `from_number_not_owned`; a test-mode campaign may use any number.
         */
        post: operations["createCampaign"];
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
        /**
         * Create and start a campaign
         * @description As creating a campaign, then starting it at once: the pacer begins dialling its contacts. A production campaign’s `from_number` must be an active phone number of the tenant, else 422 `from_number_not_owned` and nothing is created or dialled.
         */
        post: operations["runCampaign"];
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
        /**
         * Get a campaign
         * @description The campaign, its settings and how many of its contacts are in each status.
         */
        get: operations["getCampaign"];
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
        /**
         * List a campaign’s contacts
         * @description The campaign’s contacts in the order they were added, filtered by status.
         */
        get: operations["listCampaignContacts"];
        put?: never;
        /**
         * Add contacts to a campaign
         * @description Adds contacts to a campaign that has not completed; a running campaign dials them too.
         */
        post: operations["addCampaignContacts"];
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
        /**
         * Start a campaign
         * @description Starts dialling a draft campaign. A change the campaign’s status does not allow is a 409. A production campaign whose `from_number` is no longer an active phone number of the tenant is a 422 `from_number_not_owned`, and stays as it was.
         */
        post: operations["startCampaign"];
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
        /**
         * Pause a campaign
         * @description Stops dispatching new calls; calls in progress end normally. A change the campaign’s status does not allow is a 409.
         */
        post: operations["pauseCampaign"];
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
        /**
         * Resume a campaign
         * @description Resumes dispatching a paused campaign. A change the campaign’s status does not allow is a 409. A production campaign whose `from_number` is no longer an active phone number of the tenant is a 422 `from_number_not_owned`, and stays paused.
         */
        post: operations["resumeCampaign"];
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
        /**
         * Campaign progress over time
         * @description Contacts finished per interval (completed, failed, skipped) and the running total.
         */
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
        /**
         * Get the credit balance
         * @description The prepaid balance and the threshold below which `credits.low` is sent.
         */
        get: operations["getCredits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set the low-balance threshold
         * @description Sets `threshold_cents`, below which `credits.low` is sent.
         */
        patch: operations["updateCredits"];
        trace?: never;
    };
    "/v1/credits/topups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List top-ups
         * @description The tenant’s top-ups, newest first.
         */
        get: operations["listTopups"];
        put?: never;
        /**
         * Top up the credit balance
         * @description Creates a payment intent with the payment processor; the amount is added when the payment settles (`credits.topup_succeeded`). A 409 `payments_not_configured` when no processor is configured.
         */
        post: operations["createTopup"];
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
        /**
         * Get a top-up
         * @description One top-up and its status.
         */
        get: operations["getTopup"];
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
        /**
         * Grant credits to a tenant
         * @description An operator’s adjustment of a tenant’s balance (negative takes credit away), not a top-up.
         */
        post: operations["grantCredits"];
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
        /**
         * List voice clones
         * @description The tenant’s voices, newest first, with their samples and training status.
         */
        get: operations["listVoiceClones"];
        put?: never;
        /**
         * Clone a voice from samples
         * @description Uploads recordings of one voice (multipart/form-data) and queues its training; `voice_clone.ready` or `voice_clone.failed` follows. Each file is checked (type, decodable audio, length); beyond the limits it is a 413, a non-audio file a 415, a tenant over its voice or storage quota a 422.
         */
        post: operations["createVoiceClone"];
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
        /**
         * Get a voice clone
         * @description The voice, its samples (measured once training has read them) and its training status.
         */
        get: operations["getVoiceClone"];
        put?: never;
        post?: never;
        /**
         * Delete a voice clone
         * @description Deletes the voice and its samples; calls already placed with it keep its id.
         */
        delete: operations["deleteVoiceClone"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tool_secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the tool signing secret
         * @description Makes a new secret that signs the agent’s tool calls (as webhooks are signed), shown this once, and replaces the previous one at once. A replay under the same Idempotency-Key is a 409: the secret is not kept to be shown again.
         */
        post: operations["rotateToolSecret"];
        delete?: never;
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
        /**
         * List rooms
         * @description The tenant’s rooms, newest first, filtered by status.
         */
        get: operations["listRooms"];
        put?: never;
        /**
         * Create a room
         * @description A browser conversation with an agent: give `room_url` to the participant, who talks to the agent over WebRTC until the room expires (`expires_in_seconds`). The room’s events and its session follow.
         */
        post: operations["createRoom"];
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
        /**
         * Get a room
         * @description The room, its state and its session once joined.
         */
        get: operations["getRoom"];
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
        /**
         * List inbound numbers
         * @description The tenant’s numbers, newest first.
         */
        get: operations["listPhoneNumbers"];
        put?: never;
        /**
         * Register an inbound number
         * @description Registers one of the tenant’s numbers, answered by `agent_config`. A production number takes calls once its ownership is shown by a verification call (`pending_verification` until then); a test-mode number is active at once.
         */
        post: operations["createPhoneNumber"];
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
        /**
         * Get an inbound number
         * @description The number, its agent and its status.
         */
        get: operations["getPhoneNumber"];
        put?: never;
        post?: never;
        /**
         * Release an inbound number
         * @description The number takes no more calls for the tenant.
         */
        delete: operations["deletePhoneNumber"];
        options?: never;
        head?: never;
        /**
         * Update an inbound number
         * @description Changes its agent or test mode; fields not sent are kept.
         */
        patch: operations["updatePhoneNumber"];
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
        /**
         * Play a test inbound call
         * @description Plays one inbound call to the number on the simulator, free of charge; answers with the new session.
         */
        post: operations["testInboundCall"];
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
        /**
         * Place a verification call
         * @description Calls the number; its agent speaks a 6-digit code, valid 10 minutes, for /verification/confirm. At most one call a minute and 5 a day to a number per tenant, 10 a day to a number for all tenants, 20 a day per tenant (429 beyond).
         */
        post: operations["requestPhoneNumberVerification"];
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
        /**
         * Confirm a number with its code
         * @description The code spoken on the verification call: the number becomes active. A wrong code is a 422 `verification_failed` (5 wrong tries void it); no code pending is a 409 `verification_required`.
         */
        post: operations["confirmPhoneNumberVerification"];
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
        /**
         * Assign a number to a tenant
         * @description The operator assigns a number it holds on the trunk: active at once, owned by the tenant (taken from any previous owner), with no verification call.
         */
        post: operations["assignPhoneNumber"];
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
        /**
         * Create a dashboard sign-in link
         * @description A one-time link that signs the tenant in to the dashboard; it expires soon and works once.
         */
        post: operations["createDashboardLink"];
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
        /**
         * End a tenant’s dashboard sessions
         * @description Ends every dashboard session of the tenant at once, on every instance.
         */
        delete: operations["endDashboardSessions"];
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
    "session.analysis_completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * session.analysis_completed
         * @description The call was analysed as its agent's `analysis` asked: summary, structured data, success (asynchronous, after session.ended or session.failed of a call that was answered and has a transcript; at most once per session).
         */
        post: operations["session.analysis_completed"];
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
    "session.transfer_failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * session.transfer_failed
         * @description A transfer did not go through; the caller stays with the agent, who says so, and the call goes on (fires mid-call, after session.transfer_initiated).
         */
        post: operations["session.transfer_failed"];
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
            description?: string | null;
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
        AgentToolDto: {
            /** @example book_appointment */
            name: string;
            /** @example Books an appointment at the given time. */
            description?: string;
            /**
             * @description A JSON Schema object describing the arguments (at most 16384 bytes as JSON).
             * @example {
             *       "type": "object",
             *       "properties": {
             *         "time": {
             *           "type": "string"
             *         }
             *       },
             *       "required": [
             *         "time"
             *       ]
             *     }
             */
            parameters?: {
                [key: string]: unknown;
            };
            /**
             * @description Where the platform POSTs the call, signed as webhooks are. Public https unless WEBHOOK_ALLOW_PRIVATE_URLS is set.
             * @example https://api.example.com/tools/book
             */
            url: string;
            /**
             * @description Milliseconds.
             * @default 5000
             */
            timeout_ms?: number;
        };
        AgentVoicemailDto: {
            /**
             * @description Whether the callee of an outbound call is screened for a machine.
             * @default true
             */
            detect?: boolean;
            /** @description Spoken after the machine’s beep (or the greeting’s end), then the call ends; absent: hung up on at once. */
            message?: string;
        };
        AgentAnalysisDto: {
            /** @description true: a short summary of the call (`analysis.summary`, else null). */
            summary?: boolean;
            /**
             * @description A JSON Schema object (draft-07, or 2020-12 when its $schema says so; at most 16384 bytes as JSON) of the data to extract from the call. Compiled with ajv in strict mode (unknown keywords are refused); pattern, patternProperties and $async are refused.
             * @example {
             *       "type": "object",
             *       "properties": {
             *         "appointment_booked": {
             *           "type": "boolean"
             *         },
             *         "preferred_day": {
             *           "type": [
             *             "string",
             *             "null"
             *           ]
             *         }
             *       },
             *       "required": [
             *         "appointment_booked",
             *         "preferred_day"
             *       ]
             *     }
             */
            structured_data?: {
                [key: string]: unknown;
            };
            /**
             * @description What makes the call a success; the model answers true or false (`analysis.success`, else null).
             * @example The caller booked an appointment.
             */
            success_criteria?: string;
        };
        AgentConfigDto: {
            /** @example You are Ava, a friendly scheduling assistant for Northwind Dental. */
            prompt: string;
            /** @example voice_default */
            voice_id?: string;
            dispositions?: components["schemas"]["DispositionDto"][];
            /**
             * @description Spoken when the conversation starts. Default: a short greeting.
             * @example Hi, this is Ava from Northwind Dental. How can I help?
             */
            first_message?: string;
            /**
             * @description A BCP 47 language tag.
             * @default en-US
             * @example en-US
             */
            language?: string;
            /**
             * @description International format: the number the agent may transfer the call to.
             * @example +14155550123
             */
            transfer_number?: string;
            /**
             * @description `cold`: the caller is handed to `transfer_number` (a SIP REFER). `warm`: the platform calls `transfer_number`, tells whoever answers `transfer_summary` (or a summary of the conversation), then connects the caller to them.
             * @default cold
             * @enum {string}
             */
            transfer_mode?: "cold" | "warm";
            /**
             * @description Warm transfers: spoken to the person who answers before the caller is connected.
             * @example A caller wants to move their Tuesday appointment.
             */
            transfer_summary?: string;
            /** @description Tools the model may call, with unique names (`transfer_call` and `end_call` are built in). */
            tools?: components["schemas"]["AgentToolDto"][];
            /**
             * @description The conversation’s bound.
             * @default 3600
             */
            max_duration_seconds?: number;
            /** @description The silence (ms) that ends the caller’s turn. Absent: 500 with the embedded recogniser; a streaming recogniser’s own endpointing (its final result), bounded by 500 ms of silence heard by the platform. */
            endpointing_ms?: number;
            /**
             * @description Whether the caller’s speech stops the agent’s (barge-in).
             * @default true
             */
            interruptible?: boolean;
            /** @description Outbound calls: whether an answering machine is detected (default true) and the message the agent leaves after its beep. */
            voicemail?: components["schemas"]["AgentVoicemailDto"];
            /** @description What is analysed once the call has ended (`session.analysis_completed`, the session’s `analysis`): a summary, structured data, success. At least one. */
            analysis?: components["schemas"]["AgentAnalysisDto"];
        };
        TestPersonaDto: {
            /**
             * @description What the callee says, one line per turn (1 to 50 lines of 1 to 500 characters).
             * @example [
             *       "Hi, I would like to book a cleaning.",
             *       "Tuesday morning works.",
             *       "Goodbye."
             *     ]
             */
            script: string[];
            /**
             * @description Milliseconds between lines.
             * @default 800
             */
            pause_ms?: number;
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
            /** @description Test mode only: the callee is simulated in audio, speaking each line of `script`, and the agent converses with it (in real time). */
            test_persona?: components["schemas"]["TestPersonaDto"];
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
            email?: string | null;
            /** @example Ada */
            first_name?: string | null;
            /** @example Lovelace */
            last_name?: string | null;
            /**
             * @description IANA time zone of the contact; overrides the zone derived from the number.
             * @example America/Los_Angeles
             */
            timezone?: string | null;
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
             * Format: date-time
             * @description RFC 3339; contacts still waiting then are skipped.
             * @example 2026-03-06T01:00:00.000Z
             */
            ends_at?: string | null;
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
            client_reference_id?: string | null;
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
        /**
         * @description Every error answer of the API has this body.
         * @example {
         *       "error": {
         *         "type": "not_found",
         *         "message": "No such session.",
         *         "param": "session_id",
         *         "request_id": "req-1"
         *       }
         *     }
         */
        Error: {
            error: {
                /**
                 * @description What kind of error, e.g. `invalid_request`, `not_found`, `rate_limited`.
                 * @example invalid_request
                 */
                type: string;
                /** @description A sentence for humans; never parse it. */
                message: string;
                /** @description The request field or parameter at fault, when one is. */
                param?: string;
                /** @description The request’s id, as in the `X-Request-Id` header and the logs. */
                request_id: string;
            };
        };
        Liveness: {
            /** @constant */
            status: "ok";
        };
        DatabaseCheck: {
            /** @enum {string} */
            status: "ok" | "error";
            /** @enum {string} */
            kind: "external" | "embedded";
        };
        EventStoreCheck: {
            /** @enum {string} */
            status: "ok" | "error";
            /** @enum {string} */
            kind: "kurrentdb" | "postgresql";
        };
        ProjectionsCheck: {
            /** @enum {string} */
            status: "ok" | "error";
        };
        ReadinessChecks: {
            database: components["schemas"]["DatabaseCheck"];
            event_store: components["schemas"]["EventStoreCheck"];
            projections: components["schemas"]["ProjectionsCheck"];
        };
        ConversationsCapacity: {
            /** @description Conversations this instance carries now. */
            active: number;
            /** @description The most it carries at once (MAX_CONVERSATIONS). */
            capacity: number;
            /** @description Whether it takes new conversations now: false at capacity or while its measured headroom is short (docs/capacity.md). Not a failed check: the API is ready all the same. */
            admitting: boolean;
        };
        Readiness: {
            /**
             * @description `draining` (with 503): the instance is stopping for a deploy and takes no new work.
             * @enum {string}
             */
            status: "ok" | "degraded" | "draining";
            checks: components["schemas"]["ReadinessChecks"];
            conversations: components["schemas"]["ConversationsCapacity"];
        };
        DeadLetter: {
            id: string;
            /** @description The projection or reactor that could not apply the event. */
            processor: string;
            /** @enum {string} */
            status: "dead" | "retried";
            event_id: string;
            event_type: string;
            stream_id: string;
            /** @description The event’s position in its stream. */
            stream_position: number;
            /** @description The event’s position in the store (64-bit integers, as text). */
            position: {
                commit: string;
                prepare: string;
            };
            tenant_id: string | null;
            error: string;
            attempts: number;
            /** Format: date-time */
            first_failed_at: string;
            /** Format: date-time */
            last_failed_at: string;
            /** Format: date-time */
            retried_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        DeadLetterPage: {
            data: components["schemas"]["DeadLetter"][];
            /** @description More items follow: ask again with `starting_after` = the last id. */
            has_more: boolean;
        };
        ProjectionRebuild: {
            projection: string;
            /** @description How many events were replayed. */
            events: number;
        };
        ProjectionRebuilds: {
            data: components["schemas"]["ProjectionRebuild"][];
        };
        NewTenant: {
            /** @description The tenant id (`ten_…`). */
            tenant_id: string;
            name: string;
            /** @enum {string} */
            plan: "starter" | "pro";
            /** @description The API key (`sk_…`), shown this once. */
            api_key: string;
            /** @description Names the key in the logs and to revoke it. */
            key_prefix: string;
        };
        NewApiKey: {
            /** @description The API key (`sk_…`), shown this once. */
            api_key: string;
            /** @description Names the key in the logs and to revoke it. */
            key_prefix: string;
        };
        RevokedApiKey: {
            key_prefix: string;
            /** @constant */
            revoked: true;
        };
        TenantStatus: {
            tenant_id: string;
            /** @enum {string} */
            status: "active" | "suspended";
        };
        EventEnvelope: {
            /**
             * Format: uuid
             * @description Unique event id (UUIDv7), the same as its webhook delivery’s.
             */
            id: string;
            /**
             * @description The catalog type, e.g. `session.ended`.
             * @example session.ended
             */
            type: string;
            tenant_id: string;
            /** Format: date-time */
            created_at: string;
            /** @description The payload of the event’s type, as in `webhooks`. */
            data: Record<string, never>;
        };
        EventPage: {
            data: components["schemas"]["EventEnvelope"][];
            /** @description More items follow: ask again with `starting_after` = the last id. */
            has_more: boolean;
        };
        /** @description The new endpoint and its signing secret, shown this once. */
        WebhookEndpointWithSecret: {
            /** @description The endpoint id (`we_…`). */
            id: string;
            /** @description Where deliveries are POSTed. */
            url: string;
            /** @description Event types or patterns (`session.*`, `*`). */
            events: string[];
            description: string | null;
            /**
             * @description Suspended after repeated failures or a 410.
             * @enum {string}
             */
            status: "active" | "suspended";
            /** @description Consecutive failed deliveries. */
            failure_streak: number;
            /** Format: date-time */
            created_at: string;
            /** @description The signing secret (`whsec_…`), shown this once. */
            secret: string;
        };
        WebhookEndpoint: {
            /** @description The endpoint id (`we_…`). */
            id: string;
            /** @description Where deliveries are POSTed. */
            url: string;
            /** @description Event types or patterns (`session.*`, `*`). */
            events: string[];
            description: string | null;
            /**
             * @description Suspended after repeated failures or a 410.
             * @enum {string}
             */
            status: "active" | "suspended";
            /** @description Consecutive failed deliveries. */
            failure_streak: number;
            /** Format: date-time */
            created_at: string;
        };
        WebhookEndpointList: {
            data: components["schemas"]["WebhookEndpoint"][];
        };
        Deleted: {
            id: string;
            /** @constant */
            deleted: true;
        };
        RotatedSecret: {
            id: string;
            /** @description The new signing secret (`whsec_…`), shown this once; the old one is no longer used. */
            secret: string;
        };
        TestEventSent: {
            /** @description The id of the `webhook.test` event queued. */
            event_id: string;
        };
        DeliveryAttempt: {
            /** Format: date-time */
            at: string;
            /** @description The receiver’s status; null when none came back. */
            http_status: number | null;
            /** @description Why the attempt failed (timeout, connection refused…); null on success. */
            error: string | null;
            duration_ms: number;
        };
        Delivery: {
            delivery_id: string;
            event_id: string;
            event_type: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            attempts: components["schemas"]["DeliveryAttempt"][];
            /**
             * Format: date-time
             * @description When a pending delivery is tried next.
             */
            next_attempt_at: string | null;
        };
        DeliveryList: {
            data: components["schemas"]["Delivery"][];
        };
        DeliveryQueued: {
            delivery_id: string;
            /** @constant */
            status: "pending";
        };
        Recovery: {
            id: string;
            /** Format: date-time */
            since: string;
            /** @description How many deliveries were queued again. */
            recovered: number;
        };
        Session: {
            /** @description The session id (`ses_…`). */
            session_id: string;
            /** @description Your reference, from the room or the campaign contact. */
            client_reference_id: string | null;
            /** @description Set when the session belongs to a campaign contact. */
            campaign_id: string | null;
            /** @description Set when the session belongs to a campaign contact. */
            contact_id: string | null;
            /** @enum {string} */
            direction: "outbound" | "inbound";
            /** @description International format with a leading +. null for a WebRTC room session. */
            from_number: string | null;
            /** @description International format with a leading +. null for a WebRTC room session. */
            to_number: string | null;
            /** @description The other party: the callee of an outbound call, the caller of an inbound one. */
            phone_number: string | null;
            email: string | null;
            first_name: string | null;
            last_name: string | null;
            voice_id: string;
            /** @enum {string} */
            status: "queued" | "in_progress" | "completed" | "failed" | "no_answer" | "voicemail" | "busy";
            /** @description Why a queued session waits instead of going out, null when it does not: `insufficient_credits` while the tenant’s balance is depleted, `carrier_limit` while the SIP trunk’s call budget (SIP_CPS, SIP_MAX_CALLS) is full (docs/calls-and-test-pool.md), `concurrency_limit` while the tenant has TENANT_MAX_CALLS calls at once, `capacity` while the instance that places it carries all the conversations it can (docs/capacity.md). The set may grow: treat an unknown value as held. */
            hold_reason: string | null;
            /** @description Why the session ended, e.g. completed or no_answer (not a closed set). */
            end_reason: string | null;
            test_mode: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            started_at: string | null;
            /** Format: date-time */
            ended_at: string | null;
            duration_seconds: number;
            actual_cost_cents: number;
            transcript: {
                /** @enum {string} */
                role: "agent" | "user";
                /** @description What was said; empty only on a keypad turn (see dtmf). A turn without words (one that is only a tool call) is not kept: the call is in function_invocations. Absent only on a private session's turns (a number verification call), whose words are not kept. */
                content?: string;
                /** @description The keys the caller pressed (0-9, *, #, A-D), on a user turn whose content is empty. */
                dtmf?: string;
                /** @description Seconds from session start. */
                t?: number;
            }[];
            /** @description The transcript as JSON; null while there is none. */
            transcript_url: string | null;
            function_invocations: {
                name: string;
                /** @description Outcome of the call, e.g. succeeded. */
                status: string;
                duration_ms: number;
            }[];
            metrics: {
                /** @description Each measured agent turn, in order; empty when none was (a simulated call). */
                turns: {
                    /** @description Seconds from session start (ms precision). */
                    t: number;
                    /** @description When the user stopped speaking, ms from session start. */
                    user_speech_end_ms: number;
                    /** @description When the agent’s first audio frame went out, ms from session start. */
                    agent_audio_start_ms: number;
                    /** @description From the end of the user’s speech to the agent’s first audio frame. */
                    voice_to_voice_ms: number;
                    /** @description Time in speech recognition. */
                    stt_ms: number;
                    /** @description From the transcript to the dialogue’s first words (the model, or built-in). */
                    llm_first_token_ms: number;
                    /** @description From the first words to the first synthesised audio. */
                    tts_first_audio_ms: number;
                    /** @description The user spoke over this answer and it was cut. */
                    interrupted: boolean;
                }[];
                voice_to_voice_ms: {
                    /** @description Nearest rank; null with no turn. */
                    p50: number | null;
                    /** @description Nearest rank; null with no turn. */
                    p95: number | null;
                };
            };
            /** @description The number the call was transferred to, if it was. */
            transfer_number: string | null;
            /** @description The agent’s own disposition of the call, if it gave one. */
            agent_disposition: {
                code: string;
                note: string | null;
                /** Format: date-time */
                given_at: string;
            } | null;
            /** @description The post-call analysis the agent asked for (`agent_config.analysis`), as `session.analysis_completed` delivered it; null until it is done (shortly after the end), and for a call that gets none (no plan, never answered, no transcript). */
            analysis: {
                /** @description A short summary of the call; null when the agent did not ask for one (`analysis.summary`). Written by the model at LLM_URL, or by the built-in analysis (test-pool calls, no LLM_URL): the first and last things the caller said and how the call ended. */
                summary: string | null;
                /** @description Any JSON value (null included): the data the agent asked for, conforming to its `analysis.structured_data` JSON Schema (usually an object); null when it asked for none, when the built-in analysis ran (it extracts nothing), or when no model answer conformed after the retries. */
                structured_data: unknown;
                /** @description Whether the call met the agent's `analysis.success_criteria`, as the model judged it; null when there are no criteria or when the built-in analysis ran (it does not judge). */
                success: boolean | null;
            } | null;
            /** @description Who answered an outbound call, as its answering-machine detection decided (`agent_config.voicemail.detect`), and after how many ms of the callee’s audio; null when the call was not screened (inbound, rooms, test calls, detection off, never answered). */
            amd: {
                /** @enum {string} */
                result: "human" | "machine" | "unknown";
                decided_after_ms: number;
            } | null;
            /** @description An answering machine took the call and the agent left its `voicemail.message` after the beep. */
            voicemail_message_left: boolean;
            recording: {
                recording_id: string;
                /** @enum {string|null} */
                status: "available" | "pending_purge" | "purged" | null;
                /** @description A signed link that expires; null once the recording is purged. */
                recording_url: string | null;
            } | null;
        };
        SessionPage: {
            data: components["schemas"]["Session"][];
            /** @description More items follow: ask again with `starting_after` = the last id. */
            has_more: boolean;
        };
        Transcript: {
            session_id: string;
            transcript: {
                /** @enum {string} */
                role: "agent" | "user";
                /** @description What was said; empty only on a keypad turn (see dtmf). A turn without words (one that is only a tool call) is not kept: the call is in function_invocations. Absent only on a private session's turns (a number verification call), whose words are not kept. */
                content?: string;
                /** @description The keys the caller pressed (0-9, *, #, A-D), on a user turn whose content is empty. */
                dtmf?: string;
                /** @description Seconds from session start. */
                t?: number;
            }[];
        };
        SessionEventList: {
            data: components["schemas"]["EventEnvelope"][];
        };
        RecordingLink: {
            recording_id: string;
            /** @description A signed link to the WAV file. */
            recording_url: string;
            /** Format: date-time */
            expires_at: string;
        };
        DncEntry: {
            /** @description International format with a leading +. */
            phone_number: string;
            /** @description `api`, or how it was added otherwise (an opt-out detected on a call). */
            source: string;
            /** @description The call whose opt-out added it, if one did. */
            session_id: string | null;
            /** Format: date-time */
            created_at: string;
        };
        DncList: {
            data: components["schemas"]["DncEntry"][];
        };
        DncRemoved: {
            phone_number: string;
            /** @constant */
            deleted: true;
        };
        AgentConfig: {
            /** @description The agent’s instructions. */
            prompt: string;
            /** @description A voice clone id, or `voice_default`. */
            voice_id?: string;
            dispositions?: {
                code: string;
                description: string;
            }[];
            /** @description Spoken when the conversation starts. */
            first_message?: string;
            /** @description BCP 47; absent means en-US. */
            language?: string;
            /** @description E.164: where the agent may transfer the call. */
            transfer_number?: string;
            /**
             * @description Absent means cold (a REFER); warm: the agent briefs whoever answers, then bridges the caller.
             * @enum {string}
             */
            transfer_mode?: "cold" | "warm";
            /** @description Warm transfers: what the person who answers is told first. */
            transfer_summary?: string;
            tools?: {
                name: string;
                description?: string;
                /** @description A JSON Schema object. */
                parameters?: {
                    [key: string]: unknown;
                };
                url: string;
                /** @description Absent means 5000. */
                timeout_ms?: number;
            }[];
            /** @description Absent means 3600. */
            max_duration_seconds?: number;
            /** @description The silence that ends the caller’s turn; absent: 500, or a streaming recogniser’s own. */
            endpointing_ms?: number;
            /** @description Absent means true. */
            interruptible?: boolean;
            /** @description What is analysed once the call has ended (docs/conversations-api.md, "Post-call analysis"). */
            analysis?: {
                /** @description true: a short summary of the call. */
                summary?: boolean;
                /** @description A JSON Schema (draft-07, or 2020-12 by its $schema; at most 16384 bytes as JSON) of the data to extract. */
                structured_data?: {
                    [key: string]: unknown;
                };
                /** @description What makes the call a success, judged by the model. */
                success_criteria?: string;
            };
            /** @description Outbound calls: answering-machine detection and the message left after the beep (docs/telephony.md). */
            voicemail?: {
                /** @description Absent means true: the agent holds its greeting until it knows who answered. */
                detect?: boolean;
                /** @description Spoken after a machine’s beep, then the call ends; absent: a machine is hung up on. */
                message?: string;
            };
        };
        QuietHours: {
            /** @description Local time (HH:MM) the quiet window starts, in each contact’s zone. */
            start: string;
            /** @description Local time (HH:MM) it ends; equal to start: no quiet hours. */
            end: string;
        };
        CampaignSettings: {
            max_concurrency: number;
            quiet_hours: components["schemas"]["QuietHours"];
            max_calls_per_number_per_day: number;
            /**
             * Format: date-time
             * @description Contacts still waiting then are skipped.
             */
            ends_at: string | null;
        };
        /** @description How many contacts are in each status. */
        CampaignContactCounts: {
            pending: number;
            dispatched: number;
            completed: number;
            failed: number;
            skipped: number;
        };
        Campaign: {
            /** @description The campaign id (`cmp_…`). */
            campaign_id: string;
            name: string;
            /** @constant */
            channel: "phone_call";
            /** @constant */
            session_type: "phone_call";
            /** @enum {string} */
            status: "draft" | "running" | "paused" | "completed";
            /**
             * @description Why it is paused.
             * @enum {string|null}
             */
            pause_reason: "quiet_hours" | "manual" | null;
            /**
             * Format: date-time
             * @description While paused for quiet hours: when the next contact’s window opens.
             */
            next_open_at: string | null;
            /** @description International format with a leading +. */
            from_number: string;
            test_mode: boolean;
            agent_config: components["schemas"]["AgentConfig"] | null;
            settings: components["schemas"]["CampaignSettings"];
            total_contacts: number;
            completed_sessions: number;
            failed_sessions: number;
            contacts: components["schemas"]["CampaignContactCounts"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            started_at: string | null;
            /** Format: date-time */
            paused_at: string | null;
            /** Format: date-time */
            completed_at: string | null;
        };
        CampaignPage: {
            data: components["schemas"]["Campaign"][];
            /** @description More items follow: ask again with `starting_after` = the last id. */
            has_more: boolean;
        };
        CampaignContact: {
            /** @description The contact id (`con_…`). */
            contact_id: string;
            campaign_id: string;
            phone_number: string;
            email: string | null;
            first_name: string | null;
            last_name: string | null;
            /** @description The IANA zone given for the contact, if any. */
            timezone: string | null;
            /** @description The zones its quiet hours are checked in. */
            zones: string[];
            /** @enum {string} */
            status: "pending" | "dispatched" | "completed" | "failed" | "skipped";
            /** @description Why it was skipped (`dnc`, `invalid`, `duplicate`, `ended`…). */
            skip_reason: string | null;
            /** @description The session of its call, once dispatched. */
            session_id: string | null;
            /** Format: date-time */
            dispatched_at: string | null;
            /** Format: date-time */
            finished_at: string | null;
            duration_seconds: number | null;
            actual_cost_cents: number | null;
            /** Format: date-time */
            created_at: string;
        };
        CampaignContactPage: {
            data: components["schemas"]["CampaignContact"][];
            /** @description More items follow: ask again with `starting_after` = the last id. */
            has_more: boolean;
        };
        CreditBalance: {
            /** @description The prepaid balance; production calls wait while it is depleted. */
            balance_cents: number;
            /** @description Below it, `credits.low` is sent. */
            threshold_cents: number;
            /** @constant */
            currency: "USD";
        };
        Topup: {
            /** @description The top-up id (`top_…`). */
            topup_id: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            /** @description The amount asked. */
            amount_cents: number;
            /** @constant */
            currency: "USD";
            /** @description The payment processor’s intent, to confirm it. */
            processor_payment_intent_id: string;
            failure_reason: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            settled_at: string | null;
        };
        TopupPage: {
            data: components["schemas"]["Topup"][];
            /** @description More items follow: ask again with `starting_after` = the last id. */
            has_more: boolean;
        };
        CreditGrant: {
            tenant_id: string;
            /** @description The adjustment (negative takes credit away). */
            granted_cents: number;
            /** @description The balance after it. */
            balance_cents: number;
        };
        VoiceCloneQueued: {
            voice_id: string;
            name: string;
            /** @constant */
            status: "queued";
        };
        VoiceSample: {
            index: number;
            filename: string;
            content_type: string;
            /** @description The container detected from the bytes: wav, flac, mp3 or ogg. */
            format: string;
            bytes: number;
            sha256: string;
            /** @description Null until the training job has measured the sample. */
            duration_ms: number | null;
            duration_seconds: number | null;
            rms_dbfs: number | null;
            peak_dbfs: number | null;
            sample_rate: number | null;
            channels: number | null;
            spectral_centroid_hz: number | null;
        };
        VoiceClone: {
            /** @description The voice id (`voi_…`), usable as `agent_config.voice_id` once ready. */
            voice_id: string;
            name: string;
            /** @enum {string} */
            status: "queued" | "training" | "ready" | "failed";
            sample_count: number;
            samples: components["schemas"]["VoiceSample"][];
            /** @description Why training failed. */
            error_code: string | null;
            error_message: string | null;
            /** @description The trained model: its provider and reference, and the provider’s own facts about it. */
            model: {
                provider: string;
                reference: string;
            } | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            training_started_at: string | null;
            /** Format: date-time */
            ready_at: string | null;
            /** Format: date-time */
            failed_at: string | null;
        };
        VoiceClonePage: {
            data: components["schemas"]["VoiceClone"][];
            /** @description More items follow: ask again with `starting_after` = the last id. */
            has_more: boolean;
        };
        ToolSecret: {
            /** @description The new tool signing secret (`whsec_…`), shown this once; the previous one signs nothing from now on. */
            secret: string;
        };
        Room: {
            /** @description The room id (`room_…`). */
            room_id: string;
            /** @description The link to give the participant: a page that talks to the agent. */
            room_url: string;
            /** @enum {string} */
            status: "created" | "landing_viewed" | "joined" | "completed" | "expired" | "failed";
            /** Format: date-time */
            expires_at: string;
            participant_id: string;
            /** @description Your reference, echoed in the room events and session.ended. */
            client_reference_id: string | null;
            /** @description The conversation’s session, once the participant has joined. */
            session_id: string | null;
            agent_config: components["schemas"]["AgentConfig"] | null;
            voice_id: string | null;
            /** @description A scripted participant, for tests. */
            test_scenario: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            landing_viewed_at: string | null;
            /** Format: date-time */
            joined_at: string | null;
            /** Format: date-time */
            completed_at: string | null;
            duration_seconds: number | null;
            end_reason: string | null;
            /** Format: date-time */
            expired_at: string | null;
            /** Format: date-time */
            failed_at: string | null;
            error_code: string | null;
            error_message: string | null;
        };
        RoomPage: {
            data: components["schemas"]["Room"][];
            /** @description More items follow: ask again with `starting_after` = the last id. */
            has_more: boolean;
        };
        PhoneNumber: {
            /** @description The number’s id (`pn_…`). */
            phone_number_id: string;
            /** @description International format with a leading +. */
            phone_number: string;
            agent_config: components["schemas"]["AgentConfig"];
            test_mode: boolean;
            /**
             * @description `pending_verification` until its ownership is shown (a verification call, or the operator); test mode: `active`.
             * @enum {string}
             */
            status: "active" | "pending_verification";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        PhoneNumberPage: {
            data: components["schemas"]["PhoneNumber"][];
            /** @description More items follow: ask again with `starting_after` = the last id. */
            has_more: boolean;
        };
        /** @description A verification call placed to the number; its agent speaks the code. */
        PhoneNumberVerification: {
            phone_number_id: string;
            /** @description The verification call’s session. */
            session_id: string;
            /**
             * Format: date-time
             * @description The code is valid until then.
             */
            expires_at: string;
            tries_left: number;
        };
        DashboardLink: {
            /** @description The one-time sign-in link. */
            url: string;
            /** Format: date-time */
            expires_at: string;
        };
        DashboardSessionsEnded: {
            tenant_id: string;
            /** @description How many sessions were live. */
            ended: number;
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
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service is up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": components["schemas"]["Liveness"];
                };
            };
        };
    };
    ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every dependency is reachable. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "checks": {
                     *         "database": {
                     *           "status": "ok",
                     *           "kind": "embedded"
                     *         },
                     *         "event_store": {
                     *           "status": "ok",
                     *           "kind": "postgresql"
                     *         },
                     *         "projections": {
                     *           "status": "ok"
                     *         }
                     *       },
                     *       "conversations": {
                     *         "active": 3,
                     *         "capacity": 8,
                     *         "admitting": true
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description A dependency is down (the body says which), or the instance is draining. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    listDeadLetters: {
        parameters: {
            query?: {
                /** @description Only this processor’s dead letters. */
                processor?: string;
                status?: "dead" | "retried";
                /** @description 1 to 100, default 20 */
                limit?: string;
                /** @description A dead letter id: the page after it */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of dead letters. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "dl_01jf8w2c4v6b8n0m2q4w",
                     *           "processor": "sessions",
                     *           "status": "dead",
                     *           "event_id": "0193a1f2-7c3e-7a10-8b2c-1d2e3f405162",
                     *           "event_type": "session.ended",
                     *           "stream_id": "session-ses_01jf8w2c4v6b8n0m2q4w",
                     *           "stream_position": 4,
                     *           "position": {
                     *             "commit": "1204",
                     *             "prepare": "1204"
                     *           },
                     *           "tenant_id": "ten_01jf8w2c4v6b8n0m2q4w",
                     *           "error": "relation \"sessions\" does not exist",
                     *           "attempts": 5,
                     *           "first_failed_at": "2026-11-21T10:00:00.000Z",
                     *           "last_failed_at": "2026-11-21T10:05:00.000Z",
                     *           "retried_at": null,
                     *           "created_at": "2026-11-21T10:00:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["DeadLetterPage"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeadLetter: {
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
            /** @description The dead letter. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "dl_01jf8w2c4v6b8n0m2q4w",
                     *       "processor": "sessions",
                     *       "status": "dead",
                     *       "event_id": "0193a1f2-7c3e-7a10-8b2c-1d2e3f405162",
                     *       "event_type": "session.ended",
                     *       "stream_id": "session-ses_01jf8w2c4v6b8n0m2q4w",
                     *       "stream_position": 4,
                     *       "position": {
                     *         "commit": "1204",
                     *         "prepare": "1204"
                     *       },
                     *       "tenant_id": "ten_01jf8w2c4v6b8n0m2q4w",
                     *       "error": "relation \"sessions\" does not exist",
                     *       "attempts": 5,
                     *       "first_failed_at": "2026-11-21T10:00:00.000Z",
                     *       "last_failed_at": "2026-11-21T10:05:00.000Z",
                     *       "retried_at": null,
                     *       "created_at": "2026-11-21T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["DeadLetter"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryDeadLetter: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dead letter, retried. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "dl_01jf8w2c4v6b8n0m2q4w",
                     *       "processor": "sessions",
                     *       "status": "retried",
                     *       "event_id": "0193a1f2-7c3e-7a10-8b2c-1d2e3f405162",
                     *       "event_type": "session.ended",
                     *       "stream_id": "session-ses_01jf8w2c4v6b8n0m2q4w",
                     *       "stream_position": 4,
                     *       "position": {
                     *         "commit": "1204",
                     *         "prepare": "1204"
                     *       },
                     *       "tenant_id": "ten_01jf8w2c4v6b8n0m2q4w",
                     *       "error": "relation \"sessions\" does not exist",
                     *       "attempts": 5,
                     *       "first_failed_at": "2026-11-21T10:00:00.000Z",
                     *       "last_failed_at": "2026-11-21T10:05:00.000Z",
                     *       "retried_at": "2026-11-21T11:00:00.000Z",
                     *       "created_at": "2026-11-21T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["DeadLetter"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed but not allowed now (a quota, a voice not ready, a caller ID that is not the tenant’s, another body under the same Idempotency-Key). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rebuildProjections: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RebuildProjectionsDto"];
            };
        };
        responses: {
            /** @description What was rebuilt. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "projection": "sessions",
                     *           "events": 1204
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ProjectionRebuilds"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTenantDto"];
            };
        };
        responses: {
            /** @description The tenant and its API key. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tenant_id": "ten_01jf8w2c4v6b8n0m2q4w",
                     *       "name": "Acme",
                     *       "plan": "pro",
                     *       "api_key": "sk_test_9c2f…",
                     *       "key_prefix": "sk_test_9c2f"
                     *     }
                     */
                    "application/json": components["schemas"]["NewTenant"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    issueApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "api_key": "sk_test_9c2f…",
                     *       "key_prefix": "sk_test_9c2f"
                     *     }
                     */
                    "application/json": components["schemas"]["NewApiKey"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeApiKey: {
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
            /** @description The key, revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "key_prefix": "sk_test_9c2f",
                     *       "revoked": true
                     *     }
                     */
                    "application/json": components["schemas"]["RevokedApiKey"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    suspendTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tenant, suspended. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tenant_id": "ten_01jf8w2c4v6b8n0m2q4w",
                     *       "status": "suspended"
                     *     }
                     */
                    "application/json": components["schemas"]["TenantStatus"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reactivateTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tenant, active. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tenant_id": "ten_01jf8w2c4v6b8n0m2q4w",
                     *       "status": "active"
                     *     }
                     */
                    "application/json": components["schemas"]["TenantStatus"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
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
            /** @description A page of events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "0193a1f2-7c3e-7a10-8b2c-1d2e3f405162",
                     *           "type": "webhook.test",
                     *           "tenant_id": "ten_01jd8x6k2m3n4p5q6r7s8t9v0w",
                     *           "created_at": "2026-11-21T10:00:00.000Z",
                     *           "data": {
                     *             "endpoint_id": "we_01jf8w2c4v6b8n0m2q4w",
                     *             "emitted_at": "2026-11-21T10:00:00.000Z"
                     *           }
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["EventPage"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: a per-tenant cap is reached; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoints. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "we_01jf8w2c4v6b8n0m2q4w",
                     *           "url": "https://crm.example.com/hooks/voice",
                     *           "events": [
                     *             "session.*",
                     *             "campaign.completed"
                     *           ],
                     *           "description": "CRM sync",
                     *           "status": "active",
                     *           "failure_streak": 0,
                     *           "created_at": "2026-11-21T10:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateEndpointDto"];
            };
        };
        responses: {
            /** @description The endpoint and its secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "we_01jf8w2c4v6b8n0m2q4w",
                     *       "url": "https://crm.example.com/hooks/voice",
                     *       "events": [
                     *         "session.*",
                     *         "campaign.completed"
                     *       ],
                     *       "description": "CRM sync",
                     *       "status": "active",
                     *       "failure_streak": 0,
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed but not allowed now (a quota, a voice not ready, a caller ID that is not the tenant’s, another body under the same Idempotency-Key). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookEndpoint: {
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
            /** @description The endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "we_01jf8w2c4v6b8n0m2q4w",
                     *       "url": "https://crm.example.com/hooks/voice",
                     *       "events": [
                     *         "session.*",
                     *         "campaign.completed"
                     *       ],
                     *       "description": "CRM sync",
                     *       "status": "active",
                     *       "failure_streak": 0,
                     *       "created_at": "2026-11-21T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
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
            /** @description The id, deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "we_01jf8w2c4v6b8n0m2q4w",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
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
            /** @description The endpoint as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "we_01jf8w2c4v6b8n0m2q4w",
                     *       "url": "https://crm.example.com/hooks/voice",
                     *       "events": [
                     *         "session.*",
                     *         "campaign.completed"
                     *       ],
                     *       "description": "CRM sync",
                     *       "status": "active",
                     *       "failure_streak": 0,
                     *       "created_at": "2026-11-21T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "we_01jf8w2c4v6b8n0m2q4w",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": components["schemas"]["RotatedSecret"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendWebhookTest: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test event’s id. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "event_id": "0193a1f2-7c3e-7a10-8b2c-1d2e3f405162"
                     *     }
                     */
                    "application/json": components["schemas"]["TestEventSent"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    enableWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint, active. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "we_01jf8w2c4v6b8n0m2q4w",
                     *       "url": "https://crm.example.com/hooks/voice",
                     *       "events": [
                     *         "session.*",
                     *         "campaign.completed"
                     *       ],
                     *       "description": "CRM sync",
                     *       "status": "active",
                     *       "failure_streak": 0,
                     *       "created_at": "2026-11-21T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
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
            /** @description The deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "delivery_id": "whd_01jf8w2c4v6b8n0m2q4w",
                     *           "event_id": "0193a1f2-7c3e-7a10-8b2c-1d2e3f405162",
                     *           "event_type": "session.ended",
                     *           "status": "succeeded",
                     *           "attempts": [
                     *             {
                     *               "at": "2026-11-21T10:00:01.000Z",
                     *               "http_status": 200,
                     *               "error": null,
                     *               "duration_ms": 84
                     *             }
                     *           ],
                     *           "next_attempt_at": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DeliveryList"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, pending. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "delivery_id": "whd_01jf8w2c4v6b8n0m2q4w",
                     *       "status": "pending"
                     *     }
                     */
                    "application/json": components["schemas"]["DeliveryQueued"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recoverWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
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
            /** @description How many deliveries were queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "we_01jf8w2c4v6b8n0m2q4w",
                     *       "since": "2026-11-21T00:00:00.000Z",
                     *       "recovered": 3
                     *     }
                     */
                    "application/json": components["schemas"]["Recovery"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
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
            /** @description The delivery, its payload and its attempts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "delivery_id": "whd_01jf8w2c4v6b8n0m2q4w",
                     *       "event_id": "0193a1f2-7c3e-7a10-8b2c-1d2e3f405162",
                     *       "event_type": "session.ended",
                     *       "status": "failed",
                     *       "created_at": "2026-11-25T10:00:00.000Z",
                     *       "next_attempt_at": null,
                     *       "payload": {
                     *         "id": "0193a1f2-7c3e-7a10-8b2c-1d2e3f405162",
                     *         "type": "session.ended",
                     *         "data": {}
                     *       },
                     *       "attempts": [
                     *         {
                     *           "at": "2026-11-25T10:00:01.000Z",
                     *           "http_status": 500,
                     *           "error": null,
                     *           "duration_ms": 120,
                     *           "response_body": "receiver down for maintenance"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DeliveryDetailDto"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
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
            /** @description The figures of every endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "days": 30,
                     *       "time_zone": "UTC",
                     *       "from": "2026-10-27",
                     *       "to": "2026-11-25",
                     *       "data": [
                     *         {
                     *           "endpoint_id": "we_01jf8w2c4v6b8n0m2q4w",
                     *           "url": "https://example.com/hooks",
                     *           "status": "active",
                     *           "failure_streak": 0,
                     *           "succeeded": 42,
                     *           "failed": 1,
                     *           "pending": 0,
                     *           "success_rate": 0.977
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DeliveryAnalyticsDto"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    placeCall: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCallDto"];
            };
        };
        responses: {
            /** @description The new session, queued. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "session_id": "ses_01jd8x6k2m3n4p5q6r7s8t9v0w",
                     *       "client_reference_id": null,
                     *       "campaign_id": null,
                     *       "contact_id": null,
                     *       "direction": "outbound",
                     *       "from_number": "+14155550000",
                     *       "to_number": "+14155550100",
                     *       "phone_number": "+14155550100",
                     *       "email": null,
                     *       "first_name": null,
                     *       "last_name": null,
                     *       "voice_id": "voice_default",
                     *       "status": "queued",
                     *       "hold_reason": null,
                     *       "end_reason": null,
                     *       "test_mode": true,
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "started_at": null,
                     *       "ended_at": null,
                     *       "duration_seconds": 0,
                     *       "actual_cost_cents": 0,
                     *       "transcript": [],
                     *       "transcript_url": null,
                     *       "function_invocations": [],
                     *       "metrics": {
                     *         "turns": [],
                     *         "voice_to_voice_ms": {
                     *           "p50": null,
                     *           "p95": null
                     *         }
                     *       },
                     *       "transfer_number": null,
                     *       "agent_disposition": null,
                     *       "analysis": null,
                     *       "amd": null,
                     *       "voicemail_message_left": false,
                     *       "recording": null
                     *     }
                     */
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden: the tenant is suspended, or a dashboard request lacks its CSRF token. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed but not allowed now (a quota, a voice not ready, a caller ID that is not the tenant’s, another body under the same Idempotency-Key). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: a per-tenant cap is reached; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSessions: {
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
            /** @description A page of sessions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "session_id": "ses_01jd8x6k2m3n4p5q6r7s8t9v0w",
                     *           "client_reference_id": null,
                     *           "campaign_id": null,
                     *           "contact_id": null,
                     *           "direction": "outbound",
                     *           "from_number": "+14155550000",
                     *           "to_number": "+14155550100",
                     *           "phone_number": "+14155550100",
                     *           "email": null,
                     *           "first_name": null,
                     *           "last_name": null,
                     *           "voice_id": "voice_default",
                     *           "status": "queued",
                     *           "hold_reason": null,
                     *           "end_reason": null,
                     *           "test_mode": true,
                     *           "created_at": "2026-11-21T10:00:00.000Z",
                     *           "started_at": null,
                     *           "ended_at": null,
                     *           "duration_seconds": 0,
                     *           "actual_cost_cents": 0,
                     *           "transcript": [],
                     *           "transcript_url": null,
                     *           "function_invocations": [],
                     *           "metrics": {
                     *             "turns": [],
                     *             "voice_to_voice_ms": {
                     *               "p50": null,
                     *               "p95": null
                     *             }
                     *           },
                     *           "transfer_number": null,
                     *           "agent_disposition": null,
                     *           "analysis": null,
                     *           "amd": null,
                     *           "voicemail_message_left": false,
                     *           "recording": null
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["SessionPage"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSession: {
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
            /** @description The session. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "session_id": "ses_01jd8x6k2m3n4p5q6r7s8t9v0w",
                     *       "client_reference_id": null,
                     *       "campaign_id": null,
                     *       "contact_id": null,
                     *       "direction": "outbound",
                     *       "from_number": "+14155550000",
                     *       "to_number": "+14155550100",
                     *       "phone_number": "+14155550100",
                     *       "email": null,
                     *       "first_name": null,
                     *       "last_name": null,
                     *       "voice_id": "voice_default",
                     *       "status": "queued",
                     *       "hold_reason": null,
                     *       "end_reason": null,
                     *       "test_mode": true,
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "started_at": null,
                     *       "ended_at": null,
                     *       "duration_seconds": 0,
                     *       "actual_cost_cents": 0,
                     *       "transcript": [],
                     *       "transcript_url": null,
                     *       "function_invocations": [],
                     *       "metrics": {
                     *         "turns": [],
                     *         "voice_to_voice_ms": {
                     *           "p50": null,
                     *           "p95": null
                     *         }
                     *       },
                     *       "transfer_number": null,
                     *       "agent_disposition": null,
                     *       "analysis": null,
                     *       "amd": null,
                     *       "voicemail_message_left": false,
                     *       "recording": null
                     *     }
                     */
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSessionTranscript: {
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
            /** @description The transcript. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "session_id": "ses_01jd8x6k2m3n4p5q6r7s8t9v0w",
                     *       "transcript": [
                     *         {
                     *           "role": "agent",
                     *           "content": "Hello!",
                     *           "t": 0.4
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Transcript"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    followSessionLive: {
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
            /** @description The session’s events as they are stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example id: 1
                     *     event: status
                     *     data: {"status":"queued"}
                     *
                     *     id: 4
                     *     event: turn
                     *     data: {"role":"agent","content":"Hello!","t":0.4}
                     */
                    "text/event-stream": string;
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSessionEvents: {
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
            /** @description The session’s events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "0193a1f2-7c3e-7a10-8b2c-1d2e3f405162",
                     *           "type": "session.created",
                     *           "tenant_id": "ten_01jf8w2c4v6b8n0m2q4w",
                     *           "created_at": "2026-11-21T10:00:00.000Z",
                     *           "data": {
                     *             "session_id": "ses_01jd8x6k2m3n4p5q6r7s8t9v0w"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SessionEventList"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSessionRecording: {
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
            /** @description The signed link, also in `Location`. */
            302: {
                headers: {
                    /** @description The URL of the new resource. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "recording_id": "rec_01jd8x6k2m3n4p5q6r7s8t9v0w",
                     *       "recording_url": "http://localhost:3000/recordings/rec_01jd8x6k2m3n4p5q6r7s8t9v0w.wav?expires=1795000000&signature=…",
                     *       "expires_at": "2026-11-21T11:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["RecordingLink"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRecordingFile: {
        parameters: {
            query: {
                /** @description The link’s signature. */
                signature: unknown;
                /** @description Unix seconds the link expires at. */
                expires: unknown;
            };
            header?: never;
            path: {
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The WAV file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "audio/wav": string;
                };
            };
            /** @description Forbidden: the tenant is suspended, or a dashboard request lacks its CSRF token. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Gone: the resource existed and has expired or been purged. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
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
            /** @description The figures, one entry per UTC day. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "days": 1,
                     *       "time_zone": "UTC",
                     *       "from": "2026-11-25",
                     *       "to": "2026-11-25",
                     *       "totals": {
                     *         "calls": 12,
                     *         "by_status": {
                     *           "queued": 0,
                     *           "in_progress": 1,
                     *           "completed": 8,
                     *           "failed": 1,
                     *           "no_answer": 1,
                     *           "voicemail": 1,
                     *           "busy": 0
                     *         },
                     *         "ended": 11,
                     *         "answered": 8,
                     *         "answer_rate": 0.727,
                     *         "average_duration_seconds": 94.5,
                     *         "spend_cents": 160
                     *       },
                     *       "data": [
                     *         {
                     *           "date": "2026-11-25",
                     *           "calls": 12,
                     *           "by_status": {
                     *             "queued": 0,
                     *             "in_progress": 1,
                     *             "completed": 8,
                     *             "failed": 1,
                     *             "no_answer": 1,
                     *             "voicemail": 1,
                     *             "busy": 0
                     *           },
                     *           "ended": 11,
                     *           "answered": 8,
                     *           "answer_rate": 0.727,
                     *           "average_duration_seconds": 94.5,
                     *           "spend_cents": 160
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["CallAnalyticsDto"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDnc: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The numbers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "phone_number": "+14155550106",
                     *           "source": "api",
                     *           "session_id": null,
                     *           "created_at": "2026-11-21T10:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DncList"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addDnc: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddDncDto"];
            };
        };
        responses: {
            /** @description The entry. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "phone_number": "+14155550106",
                     *       "source": "api",
                     *       "session_id": null,
                     *       "created_at": "2026-11-21T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["DncEntry"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeDnc: {
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
            /** @description The number, removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "phone_number": "+14155550106",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": components["schemas"]["DncRemoved"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCampaigns: {
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
            /** @description A page of campaigns. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "campaign_id": "cmp_01jf8w2c4v6b8n0m2q4w",
                     *           "name": "March recall",
                     *           "channel": "phone_call",
                     *           "session_type": "phone_call",
                     *           "status": "draft",
                     *           "pause_reason": null,
                     *           "next_open_at": null,
                     *           "from_number": "+14155550000",
                     *           "test_mode": true,
                     *           "agent_config": {
                     *             "prompt": "You are Ava, a friendly scheduling assistant for Northwind Dental."
                     *           },
                     *           "settings": {
                     *             "max_concurrency": 5,
                     *             "quiet_hours": {
                     *               "start": "21:00",
                     *               "end": "08:00"
                     *             },
                     *             "max_calls_per_number_per_day": 3,
                     *             "ends_at": null
                     *           },
                     *           "total_contacts": 1,
                     *           "completed_sessions": 0,
                     *           "failed_sessions": 0,
                     *           "contacts": {
                     *             "pending": 1,
                     *             "dispatched": 0,
                     *             "completed": 0,
                     *             "failed": 0,
                     *             "skipped": 0
                     *           },
                     *           "created_at": "2026-11-21T10:00:00.000Z",
                     *           "started_at": null,
                     *           "paused_at": null,
                     *           "completed_at": null
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["CampaignPage"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createCampaign: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCampaignDto"];
            };
        };
        responses: {
            /** @description The campaign, draft. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "campaign_id": "cmp_01jf8w2c4v6b8n0m2q4w",
                     *       "name": "March recall",
                     *       "channel": "phone_call",
                     *       "session_type": "phone_call",
                     *       "status": "draft",
                     *       "pause_reason": null,
                     *       "next_open_at": null,
                     *       "from_number": "+14155550000",
                     *       "test_mode": true,
                     *       "agent_config": {
                     *         "prompt": "You are Ava, a friendly scheduling assistant for Northwind Dental."
                     *       },
                     *       "settings": {
                     *         "max_concurrency": 5,
                     *         "quiet_hours": {
                     *           "start": "21:00",
                     *           "end": "08:00"
                     *         },
                     *         "max_calls_per_number_per_day": 3,
                     *         "ends_at": null
                     *       },
                     *       "total_contacts": 1,
                     *       "completed_sessions": 0,
                     *       "failed_sessions": 0,
                     *       "contacts": {
                     *         "pending": 1,
                     *         "dispatched": 0,
                     *         "completed": 0,
                     *         "failed": 0,
                     *         "skipped": 0
                     *       },
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "started_at": null,
                     *       "paused_at": null,
                     *       "completed_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden: the tenant is suspended, or a dashboard request lacks its CSRF token. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed but not allowed now (a quota, a voice not ready, a caller ID that is not the tenant’s, another body under the same Idempotency-Key). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    runCampaign: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCampaignDto"];
            };
        };
        responses: {
            /** @description The campaign, running. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "campaign_id": "cmp_01jf8w2c4v6b8n0m2q4w",
                     *       "name": "March recall",
                     *       "channel": "phone_call",
                     *       "session_type": "phone_call",
                     *       "status": "running",
                     *       "pause_reason": null,
                     *       "next_open_at": null,
                     *       "from_number": "+14155550000",
                     *       "test_mode": true,
                     *       "agent_config": {
                     *         "prompt": "You are Ava, a friendly scheduling assistant for Northwind Dental."
                     *       },
                     *       "settings": {
                     *         "max_concurrency": 5,
                     *         "quiet_hours": {
                     *           "start": "21:00",
                     *           "end": "08:00"
                     *         },
                     *         "max_calls_per_number_per_day": 3,
                     *         "ends_at": null
                     *       },
                     *       "total_contacts": 1,
                     *       "completed_sessions": 0,
                     *       "failed_sessions": 0,
                     *       "contacts": {
                     *         "pending": 1,
                     *         "dispatched": 0,
                     *         "completed": 0,
                     *         "failed": 0,
                     *         "skipped": 0
                     *       },
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "started_at": "2026-11-21T10:00:00.000Z",
                     *       "paused_at": null,
                     *       "completed_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden: the tenant is suspended, or a dashboard request lacks its CSRF token. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed but not allowed now (a quota, a voice not ready, a caller ID that is not the tenant’s, another body under the same Idempotency-Key). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCampaign: {
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
            /** @description The campaign. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "campaign_id": "cmp_01jf8w2c4v6b8n0m2q4w",
                     *       "name": "March recall",
                     *       "channel": "phone_call",
                     *       "session_type": "phone_call",
                     *       "status": "draft",
                     *       "pause_reason": null,
                     *       "next_open_at": null,
                     *       "from_number": "+14155550000",
                     *       "test_mode": true,
                     *       "agent_config": {
                     *         "prompt": "You are Ava, a friendly scheduling assistant for Northwind Dental."
                     *       },
                     *       "settings": {
                     *         "max_concurrency": 5,
                     *         "quiet_hours": {
                     *           "start": "21:00",
                     *           "end": "08:00"
                     *         },
                     *         "max_calls_per_number_per_day": 3,
                     *         "ends_at": null
                     *       },
                     *       "total_contacts": 1,
                     *       "completed_sessions": 0,
                     *       "failed_sessions": 0,
                     *       "contacts": {
                     *         "pending": 1,
                     *         "dispatched": 0,
                     *         "completed": 0,
                     *         "failed": 0,
                     *         "skipped": 0
                     *       },
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "started_at": null,
                     *       "paused_at": null,
                     *       "completed_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCampaignContacts: {
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
            /** @description A page of contacts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "contact_id": "con_01jf8w2c4v6b8n0m2q4w",
                     *           "campaign_id": "cmp_01jf8w2c4v6b8n0m2q4w",
                     *           "phone_number": "+14155550100",
                     *           "email": null,
                     *           "first_name": "Ada",
                     *           "last_name": null,
                     *           "timezone": null,
                     *           "zones": [
                     *             "America/Los_Angeles"
                     *           ],
                     *           "status": "pending",
                     *           "skip_reason": null,
                     *           "session_id": null,
                     *           "dispatched_at": null,
                     *           "finished_at": null,
                     *           "duration_seconds": null,
                     *           "actual_cost_cents": null,
                     *           "created_at": "2026-11-21T10:00:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["CampaignContactPage"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addCampaignContacts: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
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
            /** @description The campaign with its new counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "campaign_id": "cmp_01jf8w2c4v6b8n0m2q4w",
                     *       "name": "March recall",
                     *       "channel": "phone_call",
                     *       "session_type": "phone_call",
                     *       "status": "draft",
                     *       "pause_reason": null,
                     *       "next_open_at": null,
                     *       "from_number": "+14155550000",
                     *       "test_mode": true,
                     *       "agent_config": {
                     *         "prompt": "You are Ava, a friendly scheduling assistant for Northwind Dental."
                     *       },
                     *       "settings": {
                     *         "max_concurrency": 5,
                     *         "quiet_hours": {
                     *           "start": "21:00",
                     *           "end": "08:00"
                     *         },
                     *         "max_calls_per_number_per_day": 3,
                     *         "ends_at": null
                     *       },
                     *       "total_contacts": 1,
                     *       "completed_sessions": 0,
                     *       "failed_sessions": 0,
                     *       "contacts": {
                     *         "pending": 1,
                     *         "dispatched": 0,
                     *         "completed": 0,
                     *         "failed": 0,
                     *         "skipped": 0
                     *       },
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "started_at": null,
                     *       "paused_at": null,
                     *       "completed_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startCampaign: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The campaign, running. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "campaign_id": "cmp_01jf8w2c4v6b8n0m2q4w",
                     *       "name": "March recall",
                     *       "channel": "phone_call",
                     *       "session_type": "phone_call",
                     *       "status": "running",
                     *       "pause_reason": null,
                     *       "next_open_at": null,
                     *       "from_number": "+14155550000",
                     *       "test_mode": true,
                     *       "agent_config": {
                     *         "prompt": "You are Ava, a friendly scheduling assistant for Northwind Dental."
                     *       },
                     *       "settings": {
                     *         "max_concurrency": 5,
                     *         "quiet_hours": {
                     *           "start": "21:00",
                     *           "end": "08:00"
                     *         },
                     *         "max_calls_per_number_per_day": 3,
                     *         "ends_at": null
                     *       },
                     *       "total_contacts": 1,
                     *       "completed_sessions": 0,
                     *       "failed_sessions": 0,
                     *       "contacts": {
                     *         "pending": 1,
                     *         "dispatched": 0,
                     *         "completed": 0,
                     *         "failed": 0,
                     *         "skipped": 0
                     *       },
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "started_at": null,
                     *       "paused_at": null,
                     *       "completed_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed but not allowed now (a quota, a voice not ready, a caller ID that is not the tenant’s, another body under the same Idempotency-Key). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pauseCampaign: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The campaign, paused. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "campaign_id": "cmp_01jf8w2c4v6b8n0m2q4w",
                     *       "name": "March recall",
                     *       "channel": "phone_call",
                     *       "session_type": "phone_call",
                     *       "status": "paused",
                     *       "pause_reason": null,
                     *       "next_open_at": null,
                     *       "from_number": "+14155550000",
                     *       "test_mode": true,
                     *       "agent_config": {
                     *         "prompt": "You are Ava, a friendly scheduling assistant for Northwind Dental."
                     *       },
                     *       "settings": {
                     *         "max_concurrency": 5,
                     *         "quiet_hours": {
                     *           "start": "21:00",
                     *           "end": "08:00"
                     *         },
                     *         "max_calls_per_number_per_day": 3,
                     *         "ends_at": null
                     *       },
                     *       "total_contacts": 1,
                     *       "completed_sessions": 0,
                     *       "failed_sessions": 0,
                     *       "contacts": {
                     *         "pending": 1,
                     *         "dispatched": 0,
                     *         "completed": 0,
                     *         "failed": 0,
                     *         "skipped": 0
                     *       },
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "started_at": null,
                     *       "paused_at": null,
                     *       "completed_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resumeCampaign: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The campaign, running. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "campaign_id": "cmp_01jf8w2c4v6b8n0m2q4w",
                     *       "name": "March recall",
                     *       "channel": "phone_call",
                     *       "session_type": "phone_call",
                     *       "status": "running",
                     *       "pause_reason": null,
                     *       "next_open_at": null,
                     *       "from_number": "+14155550000",
                     *       "test_mode": true,
                     *       "agent_config": {
                     *         "prompt": "You are Ava, a friendly scheduling assistant for Northwind Dental."
                     *       },
                     *       "settings": {
                     *         "max_concurrency": 5,
                     *         "quiet_hours": {
                     *           "start": "21:00",
                     *           "end": "08:00"
                     *         },
                     *         "max_calls_per_number_per_day": 3,
                     *         "ends_at": null
                     *       },
                     *       "total_contacts": 1,
                     *       "completed_sessions": 0,
                     *       "failed_sessions": 0,
                     *       "contacts": {
                     *         "pending": 1,
                     *         "dispatched": 0,
                     *         "completed": 0,
                     *         "failed": 0,
                     *         "skipped": 0
                     *       },
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "started_at": null,
                     *       "paused_at": null,
                     *       "completed_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed but not allowed now (a quota, a voice not ready, a caller ID that is not the tenant’s, another body under the same Idempotency-Key). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
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
            /** @description The buckets, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "campaign_id": "cmp_01jf8w2c4v6b8n0m2q4w",
                     *       "interval": "hour",
                     *       "time_zone": "UTC",
                     *       "total_contacts": 40,
                     *       "data": [
                     *         {
                     *           "at": "2026-11-25T10:00:00.000Z",
                     *           "completed": 9,
                     *           "failed": 1,
                     *           "skipped": 1,
                     *           "finished_total": 11
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["CampaignProgressDto"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCredits: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The balance. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "balance_cents": 5000,
                     *       "threshold_cents": 1000,
                     *       "currency": "USD"
                     *     }
                     */
                    "application/json": components["schemas"]["CreditBalance"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateCredits: {
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
            /** @description The balance with its new threshold. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "balance_cents": 5000,
                     *       "threshold_cents": 1000,
                     *       "currency": "USD"
                     *     }
                     */
                    "application/json": components["schemas"]["CreditBalance"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden: the tenant is suspended, or a dashboard request lacks its CSRF token. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTopups: {
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
            /** @description A page of top-ups. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "topup_id": "top_01jf8w2c4v6b8n0m2q4w",
                     *           "status": "pending",
                     *           "amount_cents": 2000,
                     *           "currency": "USD",
                     *           "processor_payment_intent_id": "pi_sim_01jf8w2c4v6b8n0m2q4w",
                     *           "failure_reason": null,
                     *           "created_at": "2026-11-21T10:00:00.000Z",
                     *           "settled_at": null
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["TopupPage"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTopup: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTopupDto"];
            };
        };
        responses: {
            /** @description The top-up, pending. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "topup_id": "top_01jf8w2c4v6b8n0m2q4w",
                     *       "status": "pending",
                     *       "amount_cents": 2000,
                     *       "currency": "USD",
                     *       "processor_payment_intent_id": "pi_sim_01jf8w2c4v6b8n0m2q4w",
                     *       "failure_reason": null,
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "settled_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["Topup"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTopup: {
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
            /** @description The top-up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "topup_id": "top_01jf8w2c4v6b8n0m2q4w",
                     *       "status": "pending",
                     *       "amount_cents": 2000,
                     *       "currency": "USD",
                     *       "processor_payment_intent_id": "pi_sim_01jf8w2c4v6b8n0m2q4w",
                     *       "failure_reason": null,
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "settled_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["Topup"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    grantCredits: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
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
            /** @description The grant and the balance after it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tenant_id": "ten_01jf8w2c4v6b8n0m2q4w",
                     *       "granted_cents": 5000,
                     *       "balance_cents": 5000
                     *     }
                     */
                    "application/json": components["schemas"]["CreditGrant"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listVoiceClones: {
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
            /** @description A page of voices. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "voice_id": "voi_01jf8w2c4v6b8n0m2q4w",
                     *           "name": "Support voice",
                     *           "status": "ready",
                     *           "sample_count": 3,
                     *           "samples": [
                     *             {
                     *               "index": 0,
                     *               "filename": "sample-1.wav",
                     *               "content_type": "audio/wav",
                     *               "format": "wav",
                     *               "bytes": 1440044,
                     *               "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *               "duration_ms": 30000,
                     *               "duration_seconds": 30,
                     *               "rms_dbfs": -21.5,
                     *               "peak_dbfs": -3.2,
                     *               "sample_rate": 24000,
                     *               "channels": 1,
                     *               "spectral_centroid_hz": 1450.2
                     *             }
                     *           ],
                     *           "error_code": null,
                     *           "error_message": null,
                     *           "model": {
                     *             "provider": "builtin",
                     *             "reference": "voi_01jf8w2c4v6b8n0m2q4w"
                     *           },
                     *           "created_at": "2026-11-21T10:00:00.000Z",
                     *           "training_started_at": "2026-11-21T10:00:01.000Z",
                     *           "ready_at": "2026-11-21T10:00:05.000Z",
                     *           "failed_at": null
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["VoiceClonePage"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createVoiceClone: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
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
            /** @description The voice, queued for training. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "voice_id": "voi_01jf8w2c4v6b8n0m2q4w",
                     *       "name": "Support voice",
                     *       "status": "queued"
                     *     }
                     */
                    "application/json": components["schemas"]["VoiceCloneQueued"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden: the tenant is suspended, or a dashboard request lacks its CSRF token. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed but not allowed now (a quota, a voice not ready, a caller ID that is not the tenant’s, another body under the same Idempotency-Key). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: a per-tenant cap is reached; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getVoiceClone: {
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
            /** @description The voice. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "voice_id": "voi_01jf8w2c4v6b8n0m2q4w",
                     *       "name": "Support voice",
                     *       "status": "ready",
                     *       "sample_count": 3,
                     *       "samples": [
                     *         {
                     *           "index": 0,
                     *           "filename": "sample-1.wav",
                     *           "content_type": "audio/wav",
                     *           "format": "wav",
                     *           "bytes": 1440044,
                     *           "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *           "duration_ms": 30000,
                     *           "duration_seconds": 30,
                     *           "rms_dbfs": -21.5,
                     *           "peak_dbfs": -3.2,
                     *           "sample_rate": 24000,
                     *           "channels": 1,
                     *           "spectral_centroid_hz": 1450.2
                     *         }
                     *       ],
                     *       "error_code": null,
                     *       "error_message": null,
                     *       "model": {
                     *         "provider": "builtin",
                     *         "reference": "voi_01jf8w2c4v6b8n0m2q4w"
                     *       },
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "training_started_at": "2026-11-21T10:00:01.000Z",
                     *       "ready_at": "2026-11-21T10:00:05.000Z",
                     *       "failed_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["VoiceClone"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteVoiceClone: {
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
            /** @description The id, deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "voi_01jf8w2c4v6b8n0m2q4w",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateToolSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYq="
                     *     }
                     */
                    "application/json": components["schemas"]["ToolSecret"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRooms: {
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
            /** @description A page of rooms. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "room_id": "room_01jf8w2c4v6b8n0m2q4w",
                     *           "room_url": "http://localhost:3000/rooms/room_01jf8w2c4v6b8n0m2q4w?token=…",
                     *           "status": "created",
                     *           "expires_at": "2026-11-22T10:00:00.000Z",
                     *           "participant_id": "par_01jf8w2c4v6b8n0m2q4w",
                     *           "client_reference_id": "order-84213",
                     *           "session_id": null,
                     *           "agent_config": {
                     *             "prompt": "You are Ava, a friendly scheduling assistant for Northwind Dental."
                     *           },
                     *           "voice_id": null,
                     *           "test_scenario": null,
                     *           "created_at": "2026-11-21T10:00:00.000Z",
                     *           "landing_viewed_at": null,
                     *           "joined_at": null,
                     *           "completed_at": null,
                     *           "duration_seconds": null,
                     *           "end_reason": null,
                     *           "expired_at": null,
                     *           "failed_at": null,
                     *           "error_code": null,
                     *           "error_message": null
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["RoomPage"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createRoom: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRoomDto"];
            };
        };
        responses: {
            /** @description The room. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "room_id": "room_01jf8w2c4v6b8n0m2q4w",
                     *       "room_url": "http://localhost:3000/rooms/room_01jf8w2c4v6b8n0m2q4w?token=…",
                     *       "status": "created",
                     *       "expires_at": "2026-11-22T10:00:00.000Z",
                     *       "participant_id": "par_01jf8w2c4v6b8n0m2q4w",
                     *       "client_reference_id": "order-84213",
                     *       "session_id": null,
                     *       "agent_config": {
                     *         "prompt": "You are Ava, a friendly scheduling assistant for Northwind Dental."
                     *       },
                     *       "voice_id": null,
                     *       "test_scenario": null,
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "landing_viewed_at": null,
                     *       "joined_at": null,
                     *       "completed_at": null,
                     *       "duration_seconds": null,
                     *       "end_reason": null,
                     *       "expired_at": null,
                     *       "failed_at": null,
                     *       "error_code": null,
                     *       "error_message": null
                     *     }
                     */
                    "application/json": components["schemas"]["Room"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden: the tenant is suspended, or a dashboard request lacks its CSRF token. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed but not allowed now (a quota, a voice not ready, a caller ID that is not the tenant’s, another body under the same Idempotency-Key). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRoom: {
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
            /** @description The room. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "room_id": "room_01jf8w2c4v6b8n0m2q4w",
                     *       "room_url": "http://localhost:3000/rooms/room_01jf8w2c4v6b8n0m2q4w?token=…",
                     *       "status": "created",
                     *       "expires_at": "2026-11-22T10:00:00.000Z",
                     *       "participant_id": "par_01jf8w2c4v6b8n0m2q4w",
                     *       "client_reference_id": "order-84213",
                     *       "session_id": null,
                     *       "agent_config": {
                     *         "prompt": "You are Ava, a friendly scheduling assistant for Northwind Dental."
                     *       },
                     *       "voice_id": null,
                     *       "test_scenario": null,
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "landing_viewed_at": null,
                     *       "joined_at": null,
                     *       "completed_at": null,
                     *       "duration_seconds": null,
                     *       "end_reason": null,
                     *       "expired_at": null,
                     *       "failed_at": null,
                     *       "error_code": null,
                     *       "error_message": null
                     *     }
                     */
                    "application/json": components["schemas"]["Room"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPhoneNumbers: {
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
            /** @description A page of numbers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "phone_number_id": "pn_01jf8w2c4v6b8n0m2q4w",
                     *           "phone_number": "+14155550142",
                     *           "agent_config": {
                     *             "prompt": "You are the front desk of Northwind Dental."
                     *           },
                     *           "test_mode": false,
                     *           "status": "pending_verification",
                     *           "created_at": "2026-11-21T10:00:00.000Z",
                     *           "updated_at": "2026-11-21T10:00:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["PhoneNumberPage"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPhoneNumber: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePhoneNumberDto"];
            };
        };
        responses: {
            /** @description The number. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "phone_number_id": "pn_01jf8w2c4v6b8n0m2q4w",
                     *       "phone_number": "+14155550142",
                     *       "agent_config": {
                     *         "prompt": "You are the front desk of Northwind Dental."
                     *       },
                     *       "test_mode": false,
                     *       "status": "pending_verification",
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "updated_at": "2026-11-21T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["PhoneNumber"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden: the tenant is suspended, or a dashboard request lacks its CSRF token. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed but not allowed now (a quota, a voice not ready, a caller ID that is not the tenant’s, another body under the same Idempotency-Key). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPhoneNumber: {
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
            /** @description The number. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "phone_number_id": "pn_01jf8w2c4v6b8n0m2q4w",
                     *       "phone_number": "+14155550142",
                     *       "agent_config": {
                     *         "prompt": "You are the front desk of Northwind Dental."
                     *       },
                     *       "test_mode": false,
                     *       "status": "pending_verification",
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "updated_at": "2026-11-21T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["PhoneNumber"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deletePhoneNumber: {
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
            /** @description The id, deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "pn_01jf8w2c4v6b8n0m2q4w",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updatePhoneNumber: {
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
            /** @description The number as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "phone_number_id": "pn_01jf8w2c4v6b8n0m2q4w",
                     *       "phone_number": "+14155550142",
                     *       "agent_config": {
                     *         "prompt": "You are the front desk of Northwind Dental."
                     *       },
                     *       "test_mode": false,
                     *       "status": "pending_verification",
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "updated_at": "2026-11-21T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["PhoneNumber"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden: the tenant is suspended, or a dashboard request lacks its CSRF token. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed but not allowed now (a quota, a voice not ready, a caller ID that is not the tenant’s, another body under the same Idempotency-Key). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testInboundCall: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
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
            /** @description The inbound call’s session. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "session_id": "ses_01jd8x6k2m3n4p5q6r7s8t9v0w",
                     *       "client_reference_id": null,
                     *       "campaign_id": null,
                     *       "contact_id": null,
                     *       "direction": "inbound",
                     *       "from_number": "+14155550000",
                     *       "to_number": "+14155550100",
                     *       "phone_number": "+14155550100",
                     *       "email": null,
                     *       "first_name": null,
                     *       "last_name": null,
                     *       "voice_id": "voice_default",
                     *       "status": "queued",
                     *       "hold_reason": null,
                     *       "end_reason": null,
                     *       "test_mode": true,
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "started_at": null,
                     *       "ended_at": null,
                     *       "duration_seconds": 0,
                     *       "actual_cost_cents": 0,
                     *       "transcript": [],
                     *       "transcript_url": null,
                     *       "function_invocations": [],
                     *       "metrics": {
                     *         "turns": [],
                     *         "voice_to_voice_ms": {
                     *           "p50": null,
                     *           "p95": null
                     *         }
                     *       },
                     *       "transfer_number": null,
                     *       "agent_disposition": null,
                     *       "analysis": null,
                     *       "amd": null,
                     *       "voicemail_message_left": false,
                     *       "recording": null
                     *     }
                     */
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden: the tenant is suspended, or a dashboard request lacks its CSRF token. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    requestPhoneNumberVerification: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The verification call. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "phone_number_id": "pn_01jf8w2c4v6b8n0m2q4w",
                     *       "session_id": "ses_01jf8w2c4v6b8n0m2q4w",
                     *       "expires_at": "2026-11-21T10:10:00.000Z",
                     *       "tries_left": 5
                     *     }
                     */
                    "application/json": components["schemas"]["PhoneNumberVerification"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden: the tenant is suspended, or a dashboard request lacks its CSRF token. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: a per-tenant cap is reached; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    confirmPhoneNumberVerification: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
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
            /** @description The number, active. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "phone_number_id": "pn_01jf8w2c4v6b8n0m2q4w",
                     *       "phone_number": "+14155550142",
                     *       "agent_config": {
                     *         "prompt": "You are the front desk of Northwind Dental."
                     *       },
                     *       "test_mode": false,
                     *       "status": "active",
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "updated_at": "2026-11-21T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["PhoneNumber"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed but not allowed now (a quota, a voice not ready, a caller ID that is not the tenant’s, another body under the same Idempotency-Key). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    assignPhoneNumber: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
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
            /** @description The number, active. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "phone_number_id": "pn_01jf8w2c4v6b8n0m2q4w",
                     *       "phone_number": "+14155550142",
                     *       "agent_config": {
                     *         "prompt": "You are the front desk of Northwind Dental."
                     *       },
                     *       "test_mode": false,
                     *       "status": "active",
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "updated_at": "2026-11-21T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["PhoneNumber"];
                };
            };
            /** @description Invalid request: a field is missing, malformed or out of range (`param` names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type: send `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed but not allowed now (a quota, a voice not ready, a caller ID that is not the tenant’s, another body under the same Idempotency-Key). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createDashboardLink: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 characters. The same key and body within 24 hours returns the first answer without doing anything again; another body under the same key is a 422, a request still running under it a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "http://localhost:3000/dashboard/sign-in#token=…",
                     *       "expires_at": "2026-11-21T10:15:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["DashboardLink"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the resource’s state, or a request still running under the same Idempotency-Key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    endDashboardSessions: {
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
            /** @description How many sessions ended. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tenant_id": "ten_01jf8w2c4v6b8n0m2q4w",
                     *       "ended": 1
                     *     }
                     */
                    "application/json": components["schemas"]["DashboardSessionsEnded"];
                };
            };
            /** @description Missing or invalid bearer credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this tenant (another tenant’s id is a 404 too), or a cursor that names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service cannot reach its database right now; nothing was done, retry after `Retry-After`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
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
                            /** @description What was said; empty only on a keypad turn (see dtmf). A turn without words (one that is only a tool call) is not kept: the call is in function_invocations. Absent only on a private session's turns (a number verification call), whose words are not kept. */
                            content?: string;
                            /** @description The keys the caller pressed (0-9, *, #, A-D), on a user turn whose content is empty. */
                            dtmf?: string;
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
                            /** @description What was said; empty only on a keypad turn (see dtmf). A turn without words (one that is only a tool call) is not kept: the call is in function_invocations. Absent only on a private session's turns (a number verification call), whose words are not kept. */
                            content?: string;
                            /** @description The keys the caller pressed (0-9, *, #, A-D), on a user turn whose content is empty. */
                            dtmf?: string;
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
                        /** @description With status voicemail: true when the agent spoke its voicemail.message after the machine's beep; absent otherwise. */
                        voicemail_message_left?: boolean;
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
    "session.analysis_completed": {
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
                "X-Webhook-Event": "session.analysis_completed";
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
                 *       "type": "session.analysis_completed",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "session_id": "ses_01jf8z6q4m2x7c9v3b5n",
                 *         "analysis": {
                 *           "summary": "Ada agreed to a cleaning and was booked for Tuesday at 10 am.",
                 *           "structured_data": {
                 *             "appointment_booked": true,
                 *             "preferred_day": "Tuesday"
                 *           },
                 *           "success": true
                 *         }
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
                    type: "session.analysis_completed";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        session_id: string;
                        analysis: {
                            /** @description A short summary of the call; null when the agent did not ask for one (`analysis.summary`). Written by the model at LLM_URL, or by the built-in analysis (test-pool calls, no LLM_URL): the first and last things the caller said and how the call ended. */
                            summary: string | null;
                            /** @description Any JSON value (null included): the data the agent asked for, conforming to its `analysis.structured_data` JSON Schema (usually an object); null when it asked for none, when the built-in analysis ran (it extracts nothing), or when no model answer conformed after the retries. */
                            structured_data: unknown;
                            /** @description Whether the call met the agent's `analysis.success_criteria`, as the model judged it; null when there are no criteria or when the built-in analysis ran (it does not judge). */
                            success: boolean | null;
                        };
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
    "session.transfer_failed": {
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
                "X-Webhook-Event": "session.transfer_failed";
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
                 *       "type": "session.transfer_failed",
                 *       "tenant_id": "ten_01jf8v9k3m5n7b9v1c3x",
                 *       "created_at": "2026-03-02T17:05:12.503Z",
                 *       "data": {
                 *         "session_id": "ses_01jf8z6q4m2x7c9v3b5n",
                 *         "transfer_number": "+14155550142",
                 *         "reason": "refused",
                 *         "sip_code": 603
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
                    type: "session.transfer_failed";
                    /** @description Id of the owning tenant. */
                    tenant_id: string;
                    /**
                     * Format: date-time
                     * @description When the platform emitted the event, UTC with millisecond precision.
                     */
                    created_at: string;
                    data: {
                        session_id: string;
                        /** @description Where the call was to be transferred. International format with a leading +. */
                        transfer_number: string;
                        /**
                         * @description refused: the carrier or the caller's side answered the REFER with 4xx/6xx; target_failed: the target did not take the call (a failing NOTIFY sipfrag, or the warm transfer's second call failed); no_answer: nothing answered within 30 s; not_supported: this kind of call cannot be transferred.
                         * @enum {string}
                         */
                        reason: "refused" | "target_failed" | "no_answer" | "not_supported";
                        /** @description The SIP status that said so (the REFER's answer or the sipfrag's); null when none came. */
                        sip_code: number | null;
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

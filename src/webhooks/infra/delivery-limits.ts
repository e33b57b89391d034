/**
 * Bounds of the delivery worker, shared by the worker, the claims and the sender.
 * The per-endpoint bound is configuration (WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT, at most this).
 */

/** Attempts one instance has in flight at most, all endpoints together. */
export const MAX_IN_FLIGHT = 128;

/**
 * A claim outlives the longest attempt (WEBHOOK_TIMEOUT_MS, address resolution included) by this
 * much, which covers recording its result; the worker renews it while the attempt is unrecorded.
 */
export const LEASE_SLACK_MS = 30_000;

/** A held claim with less than this left is renewed (to WEBHOOK_TIMEOUT_MS + LEASE_SLACK_MS from now). */
export const RENEW_WHEN_LEFT_MS = LEASE_SLACK_MS / 2;

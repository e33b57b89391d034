import type { RoomEntity } from '../projections/room.entity';

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

/** A room as the API shows it: the room's fields, its state and its session (docs/rooms.md, "API"). */
export function presentRoom(row: RoomEntity) {
  return {
    room_id: row.roomId,
    room_url: row.roomUrl,
    status: row.status,
    expires_at: row.expiresAt.toISOString(),
    participant_id: row.participantId,
    client_reference_id: row.clientReferenceId,
    session_id: row.joinedAt === null ? null : row.sessionId,
    agent_config: row.agentConfig ?? null,
    voice_id: row.voiceId,
    test_scenario: row.testScenario,
    created_at: row.createdAt.toISOString(),
    landing_viewed_at: iso(row.landingViewedAt),
    joined_at: iso(row.joinedAt),
    completed_at: iso(row.completedAt),
    duration_seconds: row.durationSeconds,
    end_reason: row.endReason,
    expired_at: iso(row.expiredAt),
    failed_at: iso(row.failedAt),
    error_code: row.errorCode,
    error_message: row.errorMessage,
  };
}

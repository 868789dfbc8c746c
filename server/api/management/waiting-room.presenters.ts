import type { WaitingRoomStanding } from "@/server/domain/meetings/waiting-room-queries";
import { unixOrNull } from "@/server/wire/format";

/** The register answer: where the patient stands. */
export const presentRegistration = (s: WaitingRoomStanding) => ({
  queue_uid: s.id,
  position: s.position,
  estimated_wait_minutes: s.estimatedWaitMinutes,
});

/** The Waiting room queue entry resource (spec), as GET …/status returns it. */
export const presentWaitingRoomStatus = (s: WaitingRoomStanding) => ({
  queue_uid: s.id,
  status: s.status,
  position: s.position,
  estimated_wait_minutes: s.estimatedWaitMinutes,
  video_room_id: s.videoRoomId,
  allocated_at: unixOrNull(s.allocatedAt),
});

import type { WaitingRoomStanding } from "@/server/domain/meetings/waiting-room-queries";
import { z } from "zod";
import { unixField, unixOrNull } from "@/server/wire/format";

export const registrationSchema = z.object({
  queue_uid: z.string(),
  position: z.number().int(),
  estimated_wait_minutes: z.number(),
});

export const waitingRoomStatusSchema = registrationSchema.extend({
  status: z.string(),
  video_room_id: z.string().nullable(),
  allocated_at: unixField().nullable(),
});

export const waitingRoomCancelledSchema = z.object({ message: z.string() });

/** The register answer: where the patient stands. */
export const presentRegistration = (s: WaitingRoomStanding): z.infer<typeof registrationSchema> => ({
  queue_uid: s.id,
  position: s.position,
  estimated_wait_minutes: s.estimatedWaitMinutes,
});

/** The Waiting room queue entry resource (spec), as GET …/status returns it. */
export const presentWaitingRoomStatus = (s: WaitingRoomStanding): z.infer<typeof waitingRoomStatusSchema> => ({
  queue_uid: s.id,
  status: s.status,
  position: s.position,
  estimated_wait_minutes: s.estimatedWaitMinutes,
  video_room_id: s.videoRoomId,
  allocated_at: unixOrNull(s.allocatedAt),
});

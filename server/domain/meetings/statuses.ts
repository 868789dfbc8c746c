/**
 * The vocabulary of patient–doctor meetings (imports nothing). A waiting-room entry moves
 * waiting → allocated → completed, or to cancelled (docs/spec-gaps.md#issue-13-waiting-room-and-meetings).
 * A scheduled appointment (a Meeting of kind SCHEDULED) has the product's appointment statuses
 * (gaps reference G34); this service books them confirmed and cancels them. An on-demand meeting
 * (from the waiting room) has no status (null), as the spec's patient_doctor_meeting_updated says.
 */
export const WAITING_ROOM_STATUS = {
  waiting: "waiting",
  allocated: "allocated",
  completed: "completed",
  cancelled: "cancelled",
} as const;

export const APPOINTMENT_STATUS = {
  held: "held",
  confirmed: "confirmed",
  cancelled: "cancelled",
  expired: "expired",
  completed: "completed",
  noShow: "no_show",
} as const;

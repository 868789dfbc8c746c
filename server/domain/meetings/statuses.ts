/**
 * The vocabulary of patient–doctor meetings (imports nothing). A waiting-room entry moves
 * waiting → allocated → completed, or to cancelled (docs/decisions/telemedicine.md#waiting-room-and-meetings).
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

/** Who an appointment reminder goes to (appointment_reminder_due's recipient_role). */
export const REMINDER_RECIPIENT_ROLES = ["patient", "doctor", "admin"] as const;
export type ReminderRecipientRole = (typeof REMINDER_RECIPIENT_ROLES)[number];

/** How long an appointment may be, in whole minutes. */
export const APPOINTMENT_MINUTES = { min: 5, max: 8 * 60 };
/** Reminders per appointment, and how long before the start the earliest may be (30 days). */
export const REMINDER_LIMITS = { count: 10, maxMinutesBefore: 30 * 24 * 60 };
/** A reason for cancelling or moving an appointment: at most this many characters. */
export const APPOINTMENT_REASON_MAX = 1000;

/**
 * The portals' appointment lists: a range of at most 31 days (a day or a week, with room for a
 * month), and at most 500 appointments in it (more: the list says so, and a doctor filter or a
 * shorter range shows them).
 */
export const APPOINTMENT_LIST_LIMITS = { maxDays: 31, maxRows: 500 };

/** What a portal password must be (forms and the domain alike; imports nothing, so client code may use it). */
export const PASSWORD_MIN_LENGTH = 12;
/** Bounds the work of hashing an absurdly long input. */
export const PASSWORD_MAX_LENGTH = 1024;

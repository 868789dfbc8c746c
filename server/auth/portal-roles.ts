/**
 * Portal roles and where each one lands. Free of server imports: the sign-in form (a client
 * component) uses it as well as the session code.
 */
export type PortalRole = "ADMIN" | "PHARMACIST" | "DOCTOR";

// Doctors work in the admin tool's doctors' workspace.
const homes: Record<PortalRole, string> = { ADMIN: "/admin", PHARMACIST: "/pharmacy", DOCTOR: "/admin/doctor" };

/** The portal a user of this role works in. */
export function portalHome(role: PortalRole): string {
  return homes[role];
}

/**
 * A same-origin path to return to after sign-in, or undefined. Rejects absolute URLs and
 * protocol-relative tricks (`//evil.example`, `/\evil.example`) so sign-in cannot become an open redirect.
 */
export function safeCallbackPath(value: unknown): string | undefined {
  if (typeof value !== "string" || !value.startsWith("/")) return undefined;
  if (value.startsWith("//") || value.startsWith("/\\")) return undefined;
  return value;
}

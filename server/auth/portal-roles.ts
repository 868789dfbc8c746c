/**
 * Portal roles and where each one lands. Free of server imports: the sign-in form (a client
 * component) uses it as well as the session code.
 */
export type PortalRole = "ADMIN" | "PHARMACIST" | "DOCTOR";

// Doctors work in the admin tool's doctors' workspace.
const homes: Record<PortalRole, string> = { ADMIN: "/admin", PHARMACIST: "/pharmacy", DOCTOR: "/admin/doctor" };

/**
 * The request header on which proxy.ts hands a page's path and query to the portal layouts (a
 * layout is not given the pathname): where sign-in sends the user back to. Set by the proxy on every
 * page request, so a value the client sent is always replaced.
 */
export const REQUESTED_PATH_HEADER = "x-rx-requested-path";

/** The portal a user of this role works in. */
export function portalHome(role: PortalRole): string {
  return homes[role];
}

/**
 * Where to go after sign-in (a `callbackUrl`): the value resolved against the portal's origin, as
 * an absolute URL of that origin, or undefined when it leads anywhere else. The one rule of the
 * sign-in form and of next-auth's redirect callback (docs/security.md#security-headers-and-redirects).
 * It is resolved as the browser resolves it: the URL parser drops tab, CR and LF and reads `\` as
 * `/`, so `/<TAB>/evil.example`, `/\evil.example` and `//evil.example` name the host evil.example and
 * are refused. The result is absolute, never a path: `/.//evil.example` resolves to the path
 * `//evil.example`, which a browser would read as another host again.
 */
export function sameOriginCallbackUrl(value: unknown, origin: string): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return undefined;
  }
  return url.origin === new URL(origin).origin ? url.href : undefined;
}

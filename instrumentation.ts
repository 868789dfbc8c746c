/**
 * Next.js calls register() once when a server instance starts, before it handles requests.
 * Everything here is imported lazily: `next build` loads this file too and must not open the database.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { applyPortalAuthUrl } = await import("@/server/auth/portal-session");
    applyPortalAuthUrl();
    const { startService } = await import("@/server/startup");
    await startService();
  }
}

/** Inputs of the admin tool's trust service procedures (the settings section's form uses the same schema). */
import { z } from "zod";
import { clearableText } from "@/server/wire/schemas";

/**
 * The organisation's qualified trust service: its name, the CSC API base URL, the token URL (empty:
 * {base}oauth2/token), the client id and the client secret (empty: keep the stored one). Required
 * fields are checked by the domain, so that each gets its own message.
 */
export const saveTrustServiceInput = z.object({
  displayName: clearableText(100),
  baseUrl: clearableText(2048),
  tokenUrl: clearableText(2048),
  clientId: clearableText(200),
  clientSecret: clearableText(500),
});
export type SaveTrustServiceInput = z.input<typeof saveTrustServiceInput>;

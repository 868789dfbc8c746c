import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { checkedAuthRequest } from "@/server/api/portal-auth";
import { portalAuthOptions } from "@/server/auth/portal-session";
import { unservedMethods, withApiHeaders } from "@/server/http/security-headers";

type Context = { params: Promise<{ nextauth: string[] }> };

// Options are built per call (memoised inside), not at import: `next build` loads this module.
async function handler(request: NextRequest, context: Context): Promise<Response> {
  const checked = await checkedAuthRequest(request, (await context.params).nextauth);
  if (checked instanceof Response) return checked;
  return NextAuth(checked, context, portalAuthOptions());
}

const secured = withApiHeaders(handler);
export { secured as GET, secured as POST };

// The other methods: as Next.js answers them, with the API security headers.
const unserved = unservedMethods(["GET", "POST"]);
export const PUT = unserved.PUT;
export const PATCH = unserved.PATCH;
export const DELETE = unserved.DELETE;
export const OPTIONS = unserved.OPTIONS;

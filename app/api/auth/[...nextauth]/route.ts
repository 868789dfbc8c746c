import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { portalAuthOptions } from "@/server/auth/portal-session";
import { withApiHeaders } from "@/server/http/security-headers";

type Context = { params: Promise<{ nextauth: string[] }> };

// Options are built per call (memoised inside), not at import: `next build` loads this module.
async function handler(request: NextRequest, context: Context): Promise<Response> {
  return NextAuth(request, context, portalAuthOptions());
}

const secured = withApiHeaders(handler);
export { secured as GET, secured as POST };

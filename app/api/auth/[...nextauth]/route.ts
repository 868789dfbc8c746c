import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { portalAuthOptions } from "@/server/auth/portal-session";

type Context = { params: Promise<{ nextauth: string[] }> };

// Options are built per call (memoised inside), not at import: `next build` loads this module.
async function handler(request: NextRequest, context: Context): Promise<Response> {
  return NextAuth(request, context, portalAuthOptions());
}

export { handler as GET, handler as POST };

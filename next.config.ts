import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";
import { config } from "./server/config";
import { STATIC_SECURITY_HEADERS } from "./server/http/security-headers";

const nextConfig: NextConfig = {
  // The REST families serve `/path` and `/path/` alike; Next.js must not redirect between them.
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  // `npm run test:ci` type-checks the whole project with tsc just before it builds (scripts/ci/test.ts).
  typescript: { ignoreBuildErrors: process.env.BUILD_SKIP_TYPECHECK === "1" },
  // Pages and static files are compressed unless HTTP_COMPRESSION=false (a proxy in front that
  // compresses): a phone on a slow link gets a third of the bytes. REST and tRPC answers skip Next.js
  // by default (serve/rest-direct.ts), uncompressed: gzip costs a quarter to a third of a list
  // page's server CPU (orders benchmark, docs/benchmarks.md); HTTP_COMPRESSION=true sends them through here too.
  compress: config().HTTP_COMPRESSION !== "none",
  // Loaded by Node at run time instead of being bundled: PGlite ships WebAssembly and data files it
  // finds next to its own module, and the database drivers use Node built-ins and optional natives.
  // proxy.ts runs for the REST families, and Next.js then hands a route at most this much of the
  // body (10 MB by default, silently truncated): above the kit's 32 MiB cap, so the kit sees enough
  // to answer 413 itself (server/rest/body.ts).
  experimental: { proxyClientMaxBodySize: 33 * 1024 * 1024 },
  // Next.js's build files and icons, which proxy.ts leaves alone: the headers that need no
  // configuration (a build does not know the run's base URL, so no HSTS here). No policy: a
  // script's own policy would bind the pdf.js worker started from it.
  async headers() {
    const headers = Object.entries(STATIC_SECURITY_HEADERS).map(([key, value]) => ({ key, value }));
    return ["/_next/:path*", "/favicon.ico", "/icon.svg"].map((source) => ({ source, headers }));
  },
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/adapter-pg", "@prisma/client", "pg"],
};

// next-intl without locale routing: the language of a request is decided in i18n/request.ts.
export default createNextIntlPlugin("./i18n/request.ts")(nextConfig);

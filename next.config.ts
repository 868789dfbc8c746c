import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The REST families serve `/path` and `/path/` alike; Next.js must not redirect between them.
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  // Loaded by Node at run time instead of being bundled: PGlite ships WebAssembly and data files it
  // finds next to its own module, and the database drivers use Node built-ins and optional natives.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/adapter-pg", "@prisma/client", "pg"],
};

export default nextConfig;

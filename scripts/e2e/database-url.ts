/** The PostgreSQL database the e2e server runs on: `<name>_e2e` beside the one DATABASE_URL names (scripts/e2e/serve.ts recreates it). */
export function e2eDatabaseUrl(url: string): string {
  const parsed = new URL(url);
  const name = `${decodeURIComponent(parsed.pathname.slice(1)) || "postgres"}_e2e`;
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`cannot derive an e2e database name from ${parsed.pathname}`);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

import { config } from "zod/v4/core";

/**
 * Runs in the browser before the application's code (Next.js's client instrumentation). zod probes
 * whether `new Function` works the first time it parses an object; the pages' policy forbids eval,
 * so the probe is refused and reported as a CSP violation. Jitless, zod never probes; the server,
 * which loads no such policy, keeps its faster compiled parsers. The core's config only (the setting
 * the classic API reads): `z` itself would put all of zod, ~110 KB, on every page.
 */
config({ jitless: true });

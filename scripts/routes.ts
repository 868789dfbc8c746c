/**
 * Prints the route index (every URL, its handler's file:line) as Markdown.
 *   npm run routes               print it
 *   npm run routes -- --write    write it to docs/routes.md (scripts/routes.test.ts checks that file)
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { generateRouteIndex, REPO, ROUTES_DOC } from "./route-index";

const index = await generateRouteIndex();
const output = process.argv.includes("--write")
  ? (writeFileSync(path.join(REPO, ROUTES_DOC), index), `wrote ${ROUTES_DOC}\n`)
  : index;
// Route modules open nothing at import; exit anyway once written, rather than wait on a timer some module may hold.
process.stdout.write(output, () => process.exit(0));

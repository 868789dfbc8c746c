import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateRouteIndex, REPO, restFamilies, ROUTES_DOC } from "./route-index";

const lineAt = (file: string, line: number) => readFileSync(path.join(REPO, file), "utf8").split("\n")[line - 1] ?? "";

describe("route index (docs/routes.md)", () => {
  it("is up to date with the route tables", async () => {
    const committed = readFileSync(path.join(REPO, ROUTES_DOC), "utf8");
    expect(await generateRouteIndex(), `${ROUTES_DOC} is stale: run \`npm run routes -- --write\` and commit it`).toBe(committed);
  });

  it("lists every REST route at a file:line that holds its path", async () => {
    const families = await restFamilies();
    expect(families.map((f) => f.basePath).sort()).toEqual(["/api/v0/patient", "/v1/external-pharmacy-api-v1", "/v1/external_pharmacy_api", "/v1/management", "/v2/public-api"]);
    const committed = readFileSync(path.join(REPO, ROUTES_DOC), "utf8");
    let count = 0;
    for (const family of families) {
      expect(family.routes.length, family.title).toBeGreaterThan(0);
      for (const route of family.routes) {
        const name = `${route.method} ${route.fullPath}`;
        expect(route.at, `${name}: no location (declared without route()?)`).not.toBeNull();
        const { file, line } = route.at!;
        expect(file, name).toMatch(/^server\/.*\.ts$/);
        expect(lineAt(file, line), `${name} at ${file}:${line}`).toMatch(new RegExp(`path:\\s*["'\`]${route.path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}["'\`]`));
        expect(committed, name).toContain(`| ${route.method} | ${route.fullPath} |`);
        expect(committed, name).toContain(`| ${file}:${line} |`);
        count++;
      }
    }
    expect(count).toBeGreaterThan(10);
  });
});

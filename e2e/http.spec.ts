import { expect, test } from "@playwright/test";

// By default REST and tRPC answers go out uncompressed (their CPU cost; next.config.ts says why),
// pages and static files gzipped (a phone on a slow link).
test("the production server sends JSON uncompressed by default, even to a client that accepts gzip", async ({ request }) => {
  const response = await request.get("/v1/management/apidocs/openapi.json", { headers: { "accept-encoding": "gzip, deflate, br" } });
  expect(response.status()).toBe(200);
  expect(response.headers()["content-encoding"]).toBeUndefined();
  const document = await response.json();
  expect(document.paths["/v1/management/orders/"]).toBeDefined();
});

test("the production server gzips pages and static files by default, for a client that accepts it", async ({ request }) => {
  const page = await request.get("/signin", { headers: { "accept-encoding": "gzip" } });
  expect(page.status()).toBe(200);
  expect(page.headers()["content-encoding"]).toBe("gzip");
  const script = /<script[^>]+src="(\/_next\/static\/[^"]+\.js)"/.exec(await page.text())?.[1];
  expect(script).toBeTruthy();
  const asset = await request.get(script!, { headers: { "accept-encoding": "gzip" } });
  expect(asset.headers()["content-encoding"]).toBe("gzip");
  expect(asset.headers()["cache-control"]).toContain("immutable");
});

test("a page's HTML carries only the words its client components use: sign-in none of the portals'", async ({ request }) => {
  const signin = await (await request.get("/signin")).text();
  // The admin tool's and the pharmacy portal's own namespaces stay on the server (i18n/client-messages.ts).
  expect(signin).not.toContain('"adminDoors"');
  expect(signin).not.toContain('"pharmacy":{');
  expect(Buffer.byteLength(signin)).toBeLessThan(60_000);
});

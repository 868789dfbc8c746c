import { expect, test } from "@playwright/test";

// HTTP_COMPRESSION is off by default: the proxy in front compresses (next.config.ts says why).
test("the production server sends JSON uncompressed by default, even to a client that accepts gzip", async ({ request }) => {
  const response = await request.get("/v1/management/apidocs/openapi.json", { headers: { "accept-encoding": "gzip, deflate, br" } });
  expect(response.status()).toBe(200);
  expect(response.headers()["content-encoding"]).toBeUndefined();
  const document = await response.json();
  expect(document.paths["/v1/management/orders/"]).toBeDefined();
});

/**
 * Issue 36 (the API documents): a literal path wins over its {uid} sibling for every method, so each
 * answers as its own route would: its own 405 with its own Allow, never the sibling's route or Allow.
 */
import { describe, expect, it } from "vitest";
import { call } from "@/tests/http";

const M = "/v1/management";

describe.each([
  ["/wallet-passes/verify/", "POST", ["GET", "DELETE", "OPTIONS", "PATCH"]],
  ["/wallet-passes/push-notifications/", "POST", ["GET", "DELETE", "OPTIONS"]],
  ["/wallet-passes/templates/", "GET", ["DELETE", "OPTIONS", "POST"]],
  ["/notification-subscriptions/test/", "POST", ["DELETE", "OPTIONS"]],
  ["/waiting-room/register/", "POST", ["DELETE", "OPTIONS"]],
] as const)("%s", (path, own, others) => {
  it.each(others)("%s answers the literal route's HTML 405 with its own Allow", async (method) => {
    const r = await call(method, `${M}${path}`);
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe(own);
    expect(r.headers.get("content-type")).toMatch(/^text\/html/);
  });
});

import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { AUTH_BODY_MAX_BYTES } from "@/server/http/body-limits";
import { oversizedStream } from "@/tests/http";
import { checkedAuthRequest } from "./portal-auth";

const url = "http://localhost:3000/api/auth/callback/credentials";
const action = ["callback", "credentials"];
const form = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body, duplex: "half" } as RequestInit);

describe("what next-auth is handed (app/api/auth/[...nextauth]/route.ts)", () => {
  it("hands a sign-in form on, its body intact", async () => {
    const checked = await checkedAuthRequest(form("email=a%40b.example&password=x&csrfToken=t"), action);
    expect(checked).toBeInstanceOf(NextRequest);
    expect(await (checked as NextRequest).text()).toBe("email=a%40b.example&password=x&csrfToken=t");
    const session = new Request("http://localhost:3000/api/auth/session", { method: "POST", headers: { "content-type": "application/json" }, body: '{"csrfToken":"t","data":{}}' });
    expect(await checkedAuthRequest(session, ["session"])).toBeInstanceOf(NextRequest);
    expect(await checkedAuthRequest(new Request("http://localhost:3000/api/auth/csrf"), ["csrf"])).toBeInstanceOf(NextRequest);
  });

  it("refuses a body over 64 KiB with 413 and stops reading it, declared or streamed", async () => {
    const declared = (await checkedAuthRequest(form("a=1", { "content-length": String(33 * 1024 * 1024), "content-type": "application/json" }), action)) as Response;
    expect(declared.status).toBe(413);
    expect(declared.headers.get("connection")).toBe("close");

    const { stream, pulled } = oversizedStream();
    const streamed = (await checkedAuthRequest(form(stream), action)) as Response;
    expect(streamed.status).toBe(413);
    expect(pulled()).toBeLessThan(6);
    expect(AUTH_BODY_MAX_BYTES).toBe(64 * 1024);
  });

  it("answers malformed bodies and a GET to the credentials callback with a 4xx of its own, not next-auth's 500", async () => {
    const get = (await checkedAuthRequest(new Request(url), action)) as Response;
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    for (const [type, body] of [
      ["application/json", "{not json"],
      ["application/json", "[1,2]"],
      ["application/json", "null"],
      ["application/json", '{"email":"a\\u0000b"}'],
      ["application/x-www-form-urlencoded", "email=a%00b&password=x"],
      ["text/plain; application/json", "email=x"],
    ]) {
      const refused = (await checkedAuthRequest(form(body, { "content-type": type }), action)) as Response;
      expect(refused.status, `${type} ${body}`).toBe(400);
      expect(refused.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    }
  });
});

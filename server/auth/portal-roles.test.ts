import { describe, expect, it } from "vitest";
import { sameOriginCallbackUrl } from "./portal-roles";

const ORIGIN = "http://127.0.0.1:3000";

describe("the callback URL after sign-in", () => {
  it("is a URL of the portal's origin", () => {
    expect(sameOriginCallbackUrl("/admin", ORIGIN)).toBe(`${ORIGIN}/admin`);
    expect(sameOriginCallbackUrl("/admin/orders?status=open#top", ORIGIN)).toBe(`${ORIGIN}/admin/orders?status=open#top`);
    expect(sameOriginCallbackUrl(`${ORIGIN}/pharmacy`, ORIGIN)).toBe(`${ORIGIN}/pharmacy`);
    expect(sameOriginCallbackUrl("pharmacy", `${ORIGIN}/`)).toBe(`${ORIGIN}/pharmacy`);
  });

  it("refuses whatever a browser would take to another origin", () => {
    const offSite = [
      "/\t/evil.example", // what `/signin?callbackUrl=%2F%09%2Fevil.example` hands the form: the parser drops the tab
      "/\n/evil.example",
      "/\r/evil.example",
      "/\t\\evil.example",
      "//evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "https://evil.example",
      "http://127.0.0.1:3001/admin", // another port is another origin
      "https://127.0.0.1:3000/admin",
      " //evil.example",
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "http://[::1",
    ];
    for (const value of offSite) expect(sameOriginCallbackUrl(value, ORIGIN), JSON.stringify(value)).toBeUndefined();
    for (const value of [undefined, null, 42, "", ["/admin"]]) expect(sameOriginCallbackUrl(value, ORIGIN)).toBeUndefined();
  });

  it("never answers a path a browser could read as another host", () => {
    // The path of this URL is `//evil.example`: as a path it would leave the site; the absolute URL stays.
    expect(sameOriginCallbackUrl("/.//evil.example", ORIGIN)).toBe(`${ORIGIN}//evil.example`);
  });
});

describe("next-auth's redirect callback", () => {
  it("follows the same rule: this origin, else the base URL", async () => {
    const { portalAuthOptions } = await import("./portal-session");
    const redirect = (url: string) => portalAuthOptions().callbacks!.redirect!({ url, baseUrl: ORIGIN });
    expect(await redirect("/admin")).toBe(`${ORIGIN}/admin`);
    expect(await redirect(`${ORIGIN}/pharmacy?x=1`)).toBe(`${ORIGIN}/pharmacy?x=1`);
    for (const url of ["/\t/evil.example", "/\\evil.example", "//evil.example", "https://evil.example/"]) expect(await redirect(url), url).toBe(ORIGIN);
  });
});

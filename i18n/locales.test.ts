import { describe, expect, it } from "vitest";
import { acceptedLocale, resolveLocale } from "./locales";

describe("which language a request gets", () => {
  it("the user's saved choice first, then the cookie, then the browser, then English", () => {
    expect(resolveLocale({ saved: "de", cookie: "en", acceptLanguage: "en-GB" })).toBe("de");
    expect(resolveLocale({ saved: null, cookie: "de", acceptLanguage: "en-GB" })).toBe("de");
    expect(resolveLocale({ saved: "en", cookie: "de", acceptLanguage: "de-DE" })).toBe("en");
    expect(resolveLocale({ saved: null, cookie: undefined, acceptLanguage: "de-DE,de;q=0.9" })).toBe("de");
    expect(resolveLocale({ saved: null, cookie: undefined, acceptLanguage: null })).toBe("en");
  });

  it("an unknown saved value or cookie is passed over", () => {
    expect(resolveLocale({ saved: "fr", cookie: "xx", acceptLanguage: "de" })).toBe("de");
    expect(resolveLocale({ saved: null, cookie: "DE", acceptLanguage: undefined })).toBe("en");
  });

  it("Accept-Language: the best of German and English by quality, then by order; others ignored", () => {
    expect(acceptedLocale("de-DE")).toBe("de");
    expect(acceptedLocale("de-AT, en;q=0.5")).toBe("de");
    expect(acceptedLocale("en;q=0.4, de;q=0.8")).toBe("de");
    expect(acceptedLocale("fr-FR, en-US;q=0.8, de;q=0.7")).toBe("en");
    expect(acceptedLocale("en-US,en;q=0.9")).toBe("en");
    expect(acceptedLocale("de;q=0, en;q=0.1")).toBe("en");
    expect(acceptedLocale("fr, *;q=0.5")).toBeNull();
    expect(acceptedLocale("")).toBeNull();
  });
});

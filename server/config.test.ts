import { describe, expect, it } from "vitest";
import { parseConfig } from "./config";

describe("configuration", () => {
  it("has the documented defaults", () => {
    const c = parseConfig({});
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c).toMatchObject({
      DATA_DIR: ".data",
      PORT: 3000,
      RATE_LIMIT_PER_SECOND: 25,
      HTTP_COMPRESSION: "pages",
      SEED_ON_START: true,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
      WEBHOOK_RETRY_BASE_MS: 10_000,
      WEBHOOK_RETRY_MAX_MS: 600_000,
      WEBHOOK_TIMEOUT_MS: 30_000,
      baseUrl: "http://localhost:3000",
      inngestConfigured: false,
    });
  });

  it("parses values and refuses invalid ones with the setting's name", () => {
    const c = parseConfig({ PORT: "8080", HTTP_COMPRESSION: "on", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", DATABASE_URL: "postgres://u@h/db", INNGEST_BASE_URL: "http://127.0.0.1:8288" });
    expect(c).toMatchObject({ PORT: 8080, HTTP_COMPRESSION: "all", WEBHOOK_ALLOW_PRIVATE_TARGETS: true, baseUrl: "http://localhost:8080", inngestConfigured: true });
    expect(parseConfig({ HTTP_COMPRESSION: "false" }).HTTP_COMPRESSION).toBe("none");
    expect(() => parseConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ RATE_LIMIT_PER_SECOND: "0" })).toThrow(/RATE_LIMIT_PER_SECOND/);
    expect(() => parseConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "maybe" })).toThrow(/WEBHOOK_ALLOW_PRIVATE_TARGETS/);
  });

  it("takes an smtp:// or smtps:// SMTP_URL with a MAIL_FROM, and never repeats the URL's credentials in a refusal", () => {
    expect(parseConfig({}).SMTP_URL).toBeUndefined();
    const mail = { SMTP_URL: "smtps://mailer:s3cret-pw@smtp.example.com:465", MAIL_FROM: "Rx <no-reply@example.com>" };
    expect(parseConfig(mail)).toMatchObject(mail);
    expect(parseConfig({ ...mail, MAIL_FROM: "no-reply@example.com" }).MAIL_FROM).toBe("no-reply@example.com");
    const refusal = (env: Record<string, string>) => {
      try {
        parseConfig(env);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error("expected a refusal");
    };
    for (const url of ["https://mailer:s3cret-pw@smtp.example.com", "smtp://mailer:s3cret-pw@", "mailer:s3cret-pw@smtp.example.com"]) {
      const message = refusal({ SMTP_URL: url, MAIL_FROM: mail.MAIL_FROM });
      expect(message).toMatch(/SMTP_URL/);
      expect(message).not.toContain("s3cret");
    }
    expect(refusal({ SMTP_URL: mail.SMTP_URL })).toMatch(/MAIL_FROM.*SMTP_URL/);
    expect(refusal({ ...mail, MAIL_FROM: "not an address" })).toMatch(/MAIL_FROM/);
  });

  it("takes the wallet pass signer's three PEMs together or not at all (then the sandbox chain)", () => {
    expect(parseConfig({})).toMatchObject({ WALLET_PASS_TYPE_IDENTIFIER: "pass.example.rx-sandbox", WALLET_TEAM_IDENTIFIER: "RXSANDBOX1" });
    expect(parseConfig({}).WALLET_APNS_HOST).toBeUndefined();
    const all = { WALLET_SIGNER_CERT: "/c.pem", WALLET_SIGNER_KEY: "/k.pem", WALLET_WWDR_CERT: "/w.pem" };
    expect(parseConfig(all)).toMatchObject(all);
    expect(() => parseConfig({ WALLET_SIGNER_CERT: "/c.pem" })).toThrow(/WALLET_SIGNER_CERT.*together/);
  });
});

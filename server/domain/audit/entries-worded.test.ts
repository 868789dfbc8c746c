/**
 * Issue 37, every word in the reader's language: every audit entry the server records is worded by the
 * page from admin.audit.entries.<entity>.<action> with its values, in German and English; an entry
 * recorded without values (or without the message) would show its English summary to German readers.
 * The call sites are read as source text, so a new one without values fails here.
 */
import fs from "node:fs";
import path from "node:path";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import de from "@/messages/de.json";
import en from "@/messages/en.json";
import { auditTextOf, type AuditWords } from "@/components/admin/audit/audit-text";
import { historyTextOf, statusLabelOf } from "@/components/ui/status";

const ROOT = path.resolve(__dirname, "../..");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [full] : [];
  });
}

type Call = { where: string; text: string; file: string };

/** Every `recordAuditEvent(…)` call under server/, with its argument text (brackets balanced). */
function auditCalls(): Call[] {
  const calls: Call[] = [];
  for (const file of sourceFiles(ROOT)) {
    const source = fs.readFileSync(file, "utf8");
    for (let at = source.indexOf("recordAuditEvent("); at >= 0; at = source.indexOf("recordAuditEvent(", at + 1)) {
      if (/function\s+$/.test(source.slice(Math.max(0, at - 20), at))) continue; // the definition
      let depth = 0;
      let end = at + "recordAuditEvent".length;
      for (; end < source.length; end++) {
        const c = source[end];
        if ("({[".includes(c)) depth++;
        else if (")}]".includes(c) && --depth === 0) break;
      }
      const line = source.slice(0, at).split("\n").length;
      calls.push({ where: `${path.relative(ROOT, file)}:${line}`, text: source.slice(at, end + 1), file: source });
    }
  }
  return calls;
}

/** The entity and the actions a call can record: its literals, or the union type of an `action` parameter it passes on. */
function pairsOf(call: Call): string[] {
  const entity = /\bentity: "([a-z_]+)"/.exec(call.text)?.[1];
  const actionLine = /\baction(?:: ([^\n]+))?,\n/.exec(call.text);
  if (!entity || !actionLine) return [];
  const expression = actionLine[1] ?? /\baction: ((?:"[^"]+"\s*\|?\s*)+)\)/.exec(call.file)?.[1] ?? "";
  // `purpose === "INVITATION" ? "invited" : "…"`: the actions are the literals after the condition.
  const outcomes = expression.includes("?") ? expression.slice(expression.indexOf("?")) : expression;
  return [...outcomes.matchAll(/"([^"]+)"/g)].map((m) => `${entity}.${m[1]}`);
}

const has = (messages: unknown, key: string) => {
  let node = (messages as { admin: { audit: { entries: unknown } } }).admin.audit.entries;
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === "string";
};

describe("every audit entry is worded in the reader's language", () => {
  const calls = auditCalls();

  it("finds the call sites", () => {
    expect(calls.length).toBeGreaterThan(70);
  });

  it("passes values at every call", () => {
    const without = calls.filter((c) => !/\n\s*values[:,]/.test(c.text)).map((c) => c.where);
    expect(without).toEqual([]);
  });

  it("names its entity and action so the message can be found", () => {
    const unread = calls.filter((c) => pairsOf(c).length === 0).map((c) => c.where);
    expect(unread).toEqual([]);
  });

  it("has the message of every entity and action in both catalogues", () => {
    const missing = calls.flatMap((c) =>
      pairsOf(c).flatMap((pair) => [...(has(en, pair) ? [] : [`en ${pair} (${c.where})`]), ...(has(de, pair) ? [] : [`de ${pair} (${c.where})`])]),
    );
    expect(missing).toEqual([]);
  });
});

const translators = (locale: "de" | "en") => {
  const messages = { de, en }[locale];
  const status = createTranslator({ locale, messages, namespace: "status" });
  const audit = createTranslator({ locale, messages, namespace: "admin.audit" });
  const history = historyTextOf(status as never);
  return auditTextOf(audit as never, statusLabelOf(status as never), (label) => history({ isStatusChange: false, fromStatus: null, toStatus: label }));
};
const DE = translators("de");
const EN = translators("en");
const entry = (summary: string, key: string, values: NonNullable<AuditWords>["values"]) => ({ summary, words: { key, values } });

describe("representative entries", () => {
  const cases = [
    entry('External Pharmacy API key "ERP" for group Nord created (orders:read, orders:write)', "api_key.created", {
      family: "PHARMACY",
      name: "ERP",
      scopeType: "group",
      scope: "Nord",
      permissions: "orders:read, orders:write",
    }),
    entry('Management API key "CI" revoked', "api_key.revoked", { family: "MANAGEMENT", name: "CI" }),
    entry('"Ibu 400" at Adler: stock 3 → 5, external id', "pharmacy_sku.updated", { name: "Ibu 400", pharmacy: "Adler", stock: "3 → 5", price: "none", externalId: "true" }),
    entry('"Ibu 400" at Adler: price 1.00 → 2.50 EUR', "pharmacy_sku.updated", { name: "Ibu 400", pharmacy: "Adler", stock: "none", price: "1.00 → 2.50", externalId: "false" }),
    entry('2 pending prescription(s) of "Dr. A" requeued to the pool', "doctor.requeued", { count: 2, name: "Dr. A", to: null, hasTo: "false" }),
    entry('1 pending prescription(s) of "Dr. A" requeued to "Dr. B"', "doctor.requeued", { count: 1, name: "Dr. A", to: "Dr. B", hasTo: "true" }),
    entry("ana@example.com invited as pharmacist (invitation e-mailed)", "user.invited", { via: "admin", email: "ana@example.com", role: "PHARMACIST", mailed: "true" }),
    entry('ops@example.com invited as admin when the organisation "Acme" was created', "user.invited", { via: "organisation", email: "ops@example.com", organisation: "Acme" }),
    entry("Password reset link e-mailed to ana@example.com", "user.password_reset_issued", { via: "admin", email: "ana@example.com", mailed: "true" }),
    entry("Trust service removed; 2 doctor credential(s) unlinked", "setting.removed", { setting: "trust_service", unlinked: 2 }),
    entry("Payment provider connection set: API key …abcd", "setting.created", { setting: "payment_provider", replaced: "true", hint: "…abcd" }),
    entry('Trust service "D-Trust" changed', "setting.changed", { setting: "trust_service", name: "D-Trust", replaced: "false", hint: null }),
    entry('Wallet pass template "Member": name "Member" → "Gold", now requires a signed prescription', "wallet_pass_template.changed", {
      name: "Member",
      renamed: "true",
      newName: "Gold",
      signed: "now",
    }),
    entry("Webhook order.created to https://erp.example/hook re-registered (new secret issued)", "webhook_subscription.re-registered", {
      scope: "ORGANISATION",
      type: "order.created",
      target: "https://erp.example/hook",
    }),
    entry('Telemedicine provider "Tele": key ab12… revoked, key cd34… issued', "telemedicine_provider.key_rotated", { name: "Tele", revoked: "ab12…", issued: "cd34" }),
    entry("Shopify connection of shop demo changed (demo.myshopify.com; new access token and client secret)", "shop.shopify_connection_changed", {
      identifier: "demo",
      storeUrl: "demo.myshopify.com",
      rotated: "both",
    }),
    entry('Pharmacy "Adler": hidden SKU type none → digital', "pharmacy.hidden_sku_type_changed", { name: "Adler", from: "NONE", to: "DIGITAL" }),
    entry("Issue thread of #1001-1 resolved; the order stays on hold", "issue_thread.resolved", { name: "#1001-1", outcome: "held", orderStatus: null }),
    entry("Prescription PDF rendering requested", "prescription.render_requested", {}),
    entry('Doctor "Dr. A": e-mail, minutes to respond changed', "doctor.settings_changed", { name: "Dr. A", fields: "e-mail, minutes to respond" }),
  ];

  it("reads in English as the summary recorded with it", () => {
    for (const c of cases) expect(EN(c)).toBe(c.summary);
  });

  it("reads in German, with German quotes", () => {
    const german = cases.map((c) => DE(c));
    expect(german.every((text, i) => text !== cases[i].summary)).toBe(true);
    expect(german[0]).toBe("External-Pharmacy-API-Schlüssel „ERP“ für die Apothekengruppe Nord erstellt (orders:read, orders:write)");
    expect(german[2]).toBe("„Ibu 400“ bei Adler: Bestand 3 → 5, externe ID");
    expect(german[4]).toBe("2 offene Rezepte von „Dr. A“ in den Pool zurückgelegt");
    expect(german[6]).toBe("ana@example.com als Apotheker/in eingeladen (Einladung per E-Mail gesendet)");
    expect(german[12]).toBe("Wallet-Pass-Vorlage „Member“: Name „Member“ → „Gold“, verlangt jetzt ein signiertes Rezept");
    expect(german[16]).toBe("Apotheke „Adler“: ausgeblendeter SKU-Typ keiner → digital");
    expect(german[19]).toBe("Ärztin/Arzt „Dr. A“: E-Mail, Antwortfrist in Minuten geändert");
    for (const text of german) expect(text).not.toMatch(/"/);
  });

  it("names the status an issue thread's order went back to", () => {
    const released = entry("", "issue_thread.resolved", { name: "#1001-1", outcome: "released", orderStatus: "in-progress" });
    expect(DE(released)).toMatch(/^Klärungsfall zu #1001-1 gelöst; die Bestellung ist wieder \S/);
    expect(DE(released)).not.toContain("in-progress");
  });
});

describe("the changed fields an entry lists", () => {
  it("each have their word in both catalogues", () => {
    const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
    const words = [
      ...["domain/doctors/doctor-settings.ts", "domain/doctors/prescriber-details.ts"].flatMap((file) => {
        const block = /const FIELD_WORDS[^{]*\{([^}]*)\}/.exec(read(file))?.[1] ?? "";
        return [...block.matchAll(/: "([^"]+)"/g)].map((m) => m[1]);
      }),
      ...[...read("domain/pharmacies/admin-pharmacies.ts").matchAll(/changed\.push\("([^"]+)"\)/g)].map((m) => m[1]),
      "Mollie organization id",
    ];
    expect(words.length).toBeGreaterThan(15);
    const fieldWords = (messages: unknown) => (messages as { admin: { audit: { fieldWords: Record<string, string> } } }).admin.audit.fieldWords;
    expect(words.filter((w) => !fieldWords(en)[w] || !fieldWords(de)[w])).toEqual([]);
    expect(words.filter((w) => fieldWords(en)[w] !== w)).toEqual([]);
  });
});

describe("notes the system writes into histories", () => {
  it("are the fixed words the portals recognise, never a sentence of their own", () => {
    // A history note or comment written as a literal would reach German readers in English; the
    // system's own are PRESCRIPTION_SYSTEM_NOTE, PHARMACY_ORDER_CHANGE and priorityChangeComment.
    const literal = /\b(note|comment): ["`']/;
    const found = sourceFiles(path.join(ROOT, "domain")).flatMap((file) =>
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (literal.test(line) ? [`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});

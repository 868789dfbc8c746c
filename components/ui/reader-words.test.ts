/**
 * Issue 37, every word in the reader's language: the texts worded at display from kinds and values
 * (history notes, payout descriptions, audit entries, country names), in German and English, and
 * what older rows stored as English sentences show (as written).
 */
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import de from "@/messages/de.json";
import en from "@/messages/en.json";
import { auditActionOf, auditTextOf } from "@/components/admin/audit/audit-text";
import { formatCountry } from "./format";
import { CANCELLATION_COMMENT, pharmacyOrderSystemNote, priorityChangeComment } from "@/server/domain/pharmacy-orders/statuses";
import { PRESCRIPTION_SYSTEM_NOTE, prescriptionSystemNote } from "@/server/domain/prescriptions/statuses";
import { historyTextOf, payoutDescriptionOf, payoutReviewReasonOf, statusLabelOf, systemNoteOf } from "./status";

const MESSAGES = { de, en } as const;
const translators = (locale: "de" | "en") => {
  const status = createTranslator({ locale, messages: MESSAGES[locale], namespace: "status" });
  const audit = createTranslator({ locale, messages: MESSAGES[locale], namespace: "admin.audit" });
  const history = historyTextOf(status as never);
  return {
    status,
    history,
    payout: payoutDescriptionOf(status as never),
    review: payoutReviewReasonOf(status as never),
    systemNote: systemNoteOf(status as never),
    audit: auditTextOf(
      audit as never,
      statusLabelOf(status as never),
      (label) => history({ isStatusChange: false, fromStatus: null, toStatus: label }),
      systemNoteOf(status as never),
    ),
    action: auditActionOf(audit as never),
    actor: createTranslator({ locale, messages: MESSAGES[locale], namespace: "admin.orders.fulfillment" }),
    pharmacyActor: createTranslator({ locale, messages: MESSAGES[locale], namespace: "pharmacy.order.history" }),
  };
};
const DE = translators("de");
const EN = translators("en");

describe("pharmacy order history notes", () => {
  const note = (toStatus: string) => ({ isStatusChange: false, fromStatus: null, toStatus });
  it("words the stored labels in the reader's language", () => {
    expect(DE.history(note("stock returned"))).toBe("Bestand zurückgebucht");
    expect(DE.history(note("stock kept"))).toBe("Bestand nicht zurückgebucht");
    expect(DE.history(note("payouts flagged for review"))).toBe("Auszahlungen zur Prüfung markiert");
    expect(DE.history(note("shipment added"))).toBe("Sendung hinzugefügt");
    expect(EN.history(note("shipment added"))).toBe("Shipment added");
  });
  it("shows a note it does not know as written", () => {
    expect(DE.history(note("something an old release wrote"))).toBe("something an old release wrote");
  });
  it("still words status changes", () => {
    expect(DE.history({ isStatusChange: true, fromStatus: "in-progress", toStatus: "completed" })).toBe(
      `${DE.status("pharmacyOrder.inProgress")} → ${DE.status("pharmacyOrder.completed")}`,
    );
  });
});

describe("who changed a pharmacy order", () => {
  it("is worded the same way on the admin and the pharmacy page", () => {
    expect(DE.actor("by", { name: "ERP", type: "API_KEY" })).toBe("von ERP (API-Schlüssel)");
    expect(DE.pharmacyActor("by", { name: "ERP", type: "API_KEY" })).toBe("von ERP (API-Schlüssel)");
    expect(DE.actor("by", { name: "", type: "SYSTEM" })).toBe("vom System");
    expect(EN.actor("by", { name: "Ana", type: "USER" })).toBe("by Ana (portal)");
  });
});

describe("payout descriptions", () => {
  it("words each component's own description, and leaves any other as written", () => {
    expect(DE.payout({ componentType: "item_markup", description: "Amount paid above the pharmacy's price" })).toBe("Bezahlter Betrag über dem Apothekenpreis");
    expect(DE.payout({ componentType: "item_rest", description: "Items at the pharmacy's price" })).toBe("Artikel zum Apothekenpreis");
    expect(DE.payout({ componentType: "shipping", description: "Shipping costs" })).toBe("Versandkosten");
    expect(EN.payout({ componentType: "shipping", description: "Shipping costs" })).toBe("Shipping costs");
    expect(DE.payout({ componentType: "item_markup", description: "Set by hand" })).toBe("Set by hand");
    expect(DE.payout({ componentType: "shipping", description: null })).toBeNull();
  });
});

describe("audit-log entries", () => {
  const created = { summary: "Order demo-1001 created (1 fulfillment)", words: { key: "order.created", values: { name: "demo-1001", fulfillments: 1, onHold: "false" } } };
  it("words an entry from its kind and values", () => {
    expect(DE.audit(created)).toBe("Bestellung demo-1001 erstellt (1 Fulfillment)");
    expect(EN.audit(created)).toBe("Order demo-1001 created (1 fulfillment)");
    expect(DE.audit({ ...created, words: { key: "order.created", values: { name: "x", fulfillments: 2, onHold: "true" } } })).toBe("Bestellung x erstellt (angehalten) (2 Fulfillments)");
  });
  it("names the statuses and notes of history entries, quoting the person's note as written", () => {
    const change = { summary: "", words: { key: "pharmacy_order.status_changed", values: { name: "#1001-1", from: "in-progress", to: "completed", note: "Abgeholt" } } };
    expect(DE.audit(change)).toBe(`Apothekenbestellung #1001-1: ${DE.status("pharmacyOrder.inProgress")} → ${DE.status("pharmacyOrder.completed")}: „Abgeholt“`);
    const note = { summary: "", words: { key: "pharmacy_order.note", values: { name: "#1001-1", from: null, to: "stock returned", note: null } } };
    expect(DE.audit(note)).toBe("Apothekenbestellung #1001-1: Bestand zurückgebucht");
  });
  it("shows an older entry (no values) or an entry with no message as written", () => {
    expect(DE.audit({ summary: "Order demo-1001 created (1 fulfillment)", words: null })).toBe("Order demo-1001 created (1 fulfillment)");
    expect(DE.audit({ summary: "Something new", words: { key: "order.some_future_action", values: {} } })).toBe("Something new");
  });
  it("words the action", () => {
    expect(DE.action("created")).toBe("erstellt");
    expect(EN.action("status_changed")).toBe("status changed");
    expect(DE.action("some_future_action")).toBe("some future action");
  });
});

describe("country names", () => {
  it("names a country code in the reader's language", () => {
    expect(formatCountry("de", "DE")).toBe("Deutschland");
    expect(formatCountry("en", "DE")).toBe("Germany");
    expect(formatCountry("de", "at")).toBe("Österreich");
  });
  it("shows what is not a code as written, and a dash for none", () => {
    expect(formatCountry("de", "Germany")).toBe("Germany");
    expect(formatCountry("de", null)).toBe("—");
  });
});

describe("a payout's review reason", () => {
  it("is the cancellation's own in the reader's language, any other as written", () => {
    expect(translators("de").review("Pharmacy order cancelled after completion")).toBe("Apothekenbestellung nach dem Abschluss storniert");
    expect(translators("en").review("Pharmacy order cancelled after completion")).toBe("Pharmacy order cancelled after completion");
    expect(translators("de").review("Checked by hand")).toBe("Checked by hand");
    expect(translators("de").review(null)).toBeNull();
  });
});

describe("notes the system writes into histories", () => {
  it("words a prescription's system notes in the reader's language", () => {
    expect(DE.systemNote("prescription", PRESCRIPTION_SYSTEM_NOTE.fulfillmentCancelled)).toBe("Fulfillment storniert");
    expect(EN.systemNote("prescription", PRESCRIPTION_SYSTEM_NOTE.fulfillmentCancelled)).toBe("Fulfillment cancelled");
    expect(DE.systemNote("prescription", PRESCRIPTION_SYSTEM_NOTE.inlineSigned("Dr. Eva Muster"))).toBe("Mitgeliefertes PDF mit qualifizierter Signatur von Dr. Eva Muster");
  });
  it("words the comments of a cancellation after completion", () => {
    const returned = CANCELLATION_COMMENT.goodsReturned([CANCELLATION_COMMENT.stockMove("Ibu 400", 2, 7), CANCELLATION_COMMENT.stockMove("Vit D", 1, 1)].join("; "));
    expect(EN.systemNote("pharmacyOrder", returned)).toBe(returned);
    expect(DE.systemNote("pharmacyOrder", returned)).toBe("Nach dem Abschluss storniert; die Ware kam zurück. Ibu 400: +2 (Bestand jetzt 7); Vit D: +1 (Bestand jetzt 1)");
    expect(EN.systemNote("pharmacyOrder", CANCELLATION_COMMENT.goodsKept)).toBe(CANCELLATION_COMMENT.goodsKept);
    expect(DE.systemNote("pharmacyOrder", CANCELLATION_COMMENT.goodsKept)).toBe(
      "Nach dem Abschluss storniert; die Ware hatte die Apotheke verlassen, daher wurde kein Bestand zurückgebucht.",
    );
    for (const count of [1, 2]) {
      const flagged = CANCELLATION_COMMENT.payoutsFlagged(count, count === 1 ? "shipping" : "item_rest, shipping");
      expect(EN.systemNote("pharmacyOrder", flagged)).toBe(flagged);
    }
    expect(DE.systemNote("pharmacyOrder", CANCELLATION_COMMENT.payoutsFlagged(2, "item_rest, shipping"))).toBe(
      "Nach dem Abschluss storniert: 2 zugewiesene Auszahlungen müssen geprüft werden (item_rest, shipping).",
    );
  });
  it("words a pharmacy order's priority change", () => {
    expect(DE.systemNote("pharmacyOrder", priorityChangeComment(0, 10))).toBe("Priorität 0 → 10");
    expect(EN.systemNote("pharmacyOrder", priorityChangeComment(2, 9))).toBe("Priority 2 → 9");
  });
  it("recognises exactly what the server writes, and leaves a person's own note as written", () => {
    expect(prescriptionSystemNote(PRESCRIPTION_SYSTEM_NOTE.inlineSigned("A"))).toEqual({ key: "inlineSigned", values: { signer: "A" } });
    expect(pharmacyOrderSystemNote(priorityChangeComment(-1, 3))).toEqual({ key: "priorityChanged", values: { from: "-1", to: "3" } });
    expect(DE.systemNote("prescription", "Bitte Dosierung prüfen")).toBe("Bitte Dosierung prüfen");
    expect(DE.systemNote("pharmacyOrder", "priority please")).toBe("priority please");
    // The pharmacy order's comment is not a prescription's note.
    expect(DE.systemNote("pharmacyOrder", PRESCRIPTION_SYSTEM_NOTE.fulfillmentCancelled)).toBe("fulfillment cancelled");
  });
  it("is worded in the audit log too, unquoted; a person's note stays quoted", () => {
    const cancelled = { summary: "", words: { key: "prescription.status_changed", values: { name: "abcd1234", from: "waiting for doctor", to: "cancelled", note: "fulfillment cancelled" } } };
    expect(DE.audit(cancelled)).toBe(`Rezept abcd1234: ${DE.status("prescription.waitingForDoctor")} → ${DE.status("prescription.cancelled")}: Fulfillment storniert`);
    const priority = { summary: "", words: { key: "pharmacy_order.note", values: { name: "#1001-1", from: null, to: "order updated", note: "priority 0 → 10" } } };
    expect(DE.audit(priority)).toBe("Apothekenbestellung #1001-1: Bestellung geändert: Priorität 0 → 10");
  });
});

/** The pure parts of checkouts: G26 addresses as intake's, expiry, the token's hash, the answers' check. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { surveyAnswerProblems } from "@/server/domain/questionnaires/survey-answers";
import { checkoutTokenHash, checkoutUrl } from "./built-in-connector";
import { isCheckoutExpired, type CheckoutRequest } from "./checkout-request";
import { intakeAddress } from "./complete-checkout";

const address = { firstName: "Erika", lastName: "M", city: "Berlin", countryCode: "DE", zip: "10115", province: null };

describe("intakeAddress", () => {
  it.each([
    ["Hauptstraße 5", "Hauptstraße", "5"],
    ["Am Ring 12a", "Am Ring", "12a"],
    ["Straße des 17. Juni 135", "Straße des 17. Juni", "135"],
    ["Marktplatz", "Marktplatz", ""],
    ["  Weg 3  ", "Weg", "3"],
  ])("splits %j into street %j and house number %j", (address1, street, houseNumber) => {
    expect(intakeAddress({ ...address, address1 })).toMatchObject({ street, house_number: houseNumber, zip_code: "10115", country: "DE", city: "Berlin" });
  });
});

describe("checkout tokens and expiry", () => {
  it("stores the SHA-256 of the token and builds the URL on the public base URL", () => {
    expect(checkoutTokenHash("abc")).toBe(createHash("sha256").update("abc").digest("hex"));
    expect(checkoutUrl("tok")).toMatch(/\/checkout\/tok$/);
  });
  it("a checkout is expired from its expires_at on", () => {
    const request = { expiresAt: 1000 } as CheckoutRequest;
    expect(isCheckoutExpired(request, new Date(999_000))).toBe(false);
    expect(isCheckoutExpired(request, new Date(1_000_000))).toBe(true);
  });
});

describe("surveyAnswerProblems", () => {
  const model = {
    elements: [
      { type: "radiogroup", name: "allergies", choices: ["yes", "no"], isRequired: true },
      { type: "comment", name: "allergy_details", visibleIf: "{allergies} = 'yes'", isRequired: true },
      { type: "boolean", name: "consent", isRequired: true },
    ],
  };
  it("accepts complete answers, hidden questions unanswered", () => {
    expect(surveyAnswerProblems(model, { allergies: "no", consent: true })).toEqual({});
  });
  it("names unknown questions and unanswered visible required ones", () => {
    expect(surveyAnswerProblems(model, { allergies: "yes", shoe_size: 42 })).toEqual({
      shoe_size: ["No question with this name in the questionnaire."],
      allergy_details: ["Response required."],
      consent: ["Response required."],
    });
  });
});

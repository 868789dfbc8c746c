/**
 * Country names as the wire shows them (pharmacy order responses carry the country's English name;
 * intake takes and stores the ISO 3166-1 code). One table for the presenters and for the
 * statements that build the same JSON in the database.
 */
const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });

/** Every 2-letter region code that has an English name, with that name. */
export const COUNTRY_NAMES: Readonly<Record<string, string>> = (() => {
  const names: Record<string, string> = {};
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      const name = regionNames.of(code);
      if (name !== undefined) names[code] = name;
    }
  }
  return names;
})();

/** The English name of a country code; an unknown code as it is. */
export const countryName = (code: string): string => COUNTRY_NAMES[code] ?? code;

/** Whether a string is a 2-letter ISO country code with a name (what intake accepts). */
export const isCountryCode = (code: string): boolean => /^[A-Z]{2}$/.test(code) && code !== "ZZ" && code in COUNTRY_NAMES;

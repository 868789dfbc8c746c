/**
 * Fills the {field} placeholders of a push notification's message from the patient's profile fields
 * (docs/decisions/patients.md#wallet-passes): `{key}` is the value of the patient's property whose
 * field definition has that key; without one, the profile's own first_name, last_name or
 * display_name; an unknown or empty field becomes the empty string, so the patient never reads a
 * raw placeholder. Braces around anything that is not a key (spaces, nothing) stay as written.
 */
const PLACEHOLDER = /\{([A-Za-z0-9_.-]+)\}/g;

export function renderMessage(message: string, fields: ReadonlyMap<string, string>): string {
  return message.replace(PLACEHOLDER, (_, key: string) => fields.get(key) ?? "");
}

export function placeholderKeys(message: string): string[] {
  return [...new Set([...message.matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

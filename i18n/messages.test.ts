/**
 * The two languages carry the same messages: every key of messages/en.json is in de.json and the
 * other way round, with the same ICU arguments and rich-text tags per message (a German sentence
 * that lost its {minutes} would show a raw placeholder). The status tables name keys that exist.
 */
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import de from "@/messages/de.json";
import en from "@/messages/en.json";
import { STATUS_MESSAGE_KEYS } from "@/components/ui/status";

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === "string") out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

/**
 * The arguments ({name}, {n, plural, …}) and tags (<b>…</b>) of an ICU message, sorted. The branches
 * of a select or plural are text (`cancelled {Storniert}` names no argument); quoted text ('{uid}') is skipped.
 */
function placeholders(message: string): string[] {
  const args = new Set<string>();
  // Per open brace: text (the message, a branch) or an argument (its name, type and branch keys).
  const open: ("text" | "argument")[] = ["text"];
  for (let i = 0; i < message.length; i++) {
    const c = message[i];
    if (c === "'" && (message[i + 1] === "{" || message[i + 1] === "}")) {
      const end = message.indexOf("'", i + 1);
      i = end < 0 ? message.length : end;
    } else if (c === "{" && open.at(-1) === "text") {
      const name = /^\s*([A-Za-z_]\w*)/.exec(message.slice(i + 1));
      if (name) args.add(`{${name[1]}}`);
      open.push("argument");
    } else if (c === "{") open.push("text");
    else if (c === "}") open.pop();
  }
  const tags = [...message.matchAll(/<([A-Za-z_]\w*)>/g)].map((m) => `<${m[1]}>`);
  return [...new Set([...args, ...tags])].sort();
}

const english = flatten(en);
const german = flatten(de);

describe("messages", () => {
  it("de.json and en.json have exactly the same keys", () => {
    expect([...german.keys()].filter((k) => !english.has(k))).toEqual([]);
    expect([...english.keys()].filter((k) => !german.has(k))).toEqual([]);
  });

  it("each message has the same ICU arguments and tags in both languages", () => {
    const differing = [...english].filter(([key, text]) => german.has(key) && placeholders(text).join() !== placeholders(german.get(key)!).join());
    expect(differing.map(([key]) => key)).toEqual([]);
  });

  it("no message is empty", () => {
    expect([...english, ...german].filter(([, text]) => text.trim() === "").map(([key]) => key)).toEqual([]);
  });

  it("every message of the server's (errors.*) is valid ICU in both languages: each door words them at run time", () => {
    const failures: string[] = [];
    for (const [locale, catalogue, messages] of [["en", en, english], ["de", de, german]] as const) {
      const t = createTranslator({ locale, messages: catalogue, onError: (error) => failures.push(`${locale}: ${error.message}`) }) as unknown as (key: string, values: Record<string, string>) => string;
      for (const [key, text] of messages) {
        if (key.startsWith("errors.")) t(key, Object.fromEntries(placeholders(text).map((p) => [p.slice(1, -1), "1"])));
      }
    }
    expect(failures).toEqual([]);
  });

  it("every status label the tables use is a message", () => {
    expect(STATUS_MESSAGE_KEYS.filter((key) => !english.has(`status.${key}`))).toEqual([]);
  });

  it("the placeholder reading finds arguments, plurals and tags", () => {
    expect(placeholders("Too many attempts, try again in {minutes, plural, one {# minute} other {# minutes}}.")).toEqual(["{minutes}"]);
    expect(placeholders("For <b>{email}</b>.")).toEqual(["<b>", "{email}"]);
    expect(placeholders("Die Bestellung ist {status, select, cancelled {storniert} other {{status}}}.")).toEqual(["{status}"]);
    expect(placeholders("{n, plural, one {{n} SKU} other {{n} SKUs}} at '{uid}'")).toEqual(["{n}"]);
  });
});

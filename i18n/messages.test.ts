/**
 * The two languages carry the same messages: every key of messages/en.json is in de.json and the
 * other way round, with the same ICU arguments and rich-text tags per message (a German sentence
 * that lost its {minutes} would show a raw placeholder). The status tables name keys that exist.
 */
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

/** The arguments ({name}, {n, plural, …}) and tags (<b>…</b>) of an ICU message, sorted. */
function placeholders(message: string): string[] {
  const args = [...message.matchAll(/\{\s*([A-Za-z_]\w*)\s*[,}]/g)].map((m) => `{${m[1]}}`);
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

  it("every status label the tables use is a message", () => {
    expect(STATUS_MESSAGE_KEYS.filter((key) => !english.has(`status.${key}`))).toEqual([]);
  });

  it("the placeholder reading finds arguments, plurals and tags", () => {
    expect(placeholders("Too many attempts, try again in {minutes, plural, one {# minute} other {# minutes}}.")).toEqual(["{minutes}"]);
    expect(placeholders("For <b>{email}</b>.")).toEqual(["<b>", "{email}"]);
  });
});

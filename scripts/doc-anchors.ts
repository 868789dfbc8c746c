/**
 * Citations of documents and their headings: `docs/decisions/intake.md#re-routing` in a comment,
 * `[text](decisions/payouts.md#split-payouts)` in a page. Used by scripts/doc-anchors.test.ts, so a
 * renamed heading or moved file fails the suite naming each place that still cites the old one.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Folders never scanned: dependencies, build output, the generated Prisma client, test output. */
const SKIP = new Set(["node_modules", ".next", "generated", ".git", "test-results", "playwright-report", "coverage"]);
const EXTENSIONS = /\.(ts|tsx|mjs|md|sh|ya?ml)$/;

/** Repo-relative paths of every file the citations can live in. */
export function citingFiles(repo: string, dir = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(repo, dir), { withFileTypes: true })) {
    if (SKIP.has(entry.name) || (entry.name.startsWith(".") && entry.isDirectory())) continue;
    const file = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...citingFiles(repo, file));
    else if (EXTENSIONS.test(entry.name)) files.push(file);
  }
  return files;
}

/**
 * GitHub's heading anchor (github-slugger's rule): lower case, everything but letters, digits,
 * marks, `_`, `-` and spaces dropped, each space a hyphen. Inline markup goes first, as GitHub
 * slugs the rendered text: `code` keeps its text, [a link](url) its label, emphasis its words.
 */
export function slug(heading: string): string {
  const text = heading
    .replace(/`([^`]*)`/g, "$1")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/(\*\*|__|\*)(.+?)\1/g, "$2");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors a Markdown file offers: its headings (repeats get -1, -2 … as on GitHub) and `<a id|name>`. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const opening = /^\s*(```|~~~)/.exec(line);
    if (opening) {
      if (fence === null) fence = opening[1];
      else if (line.trim().startsWith(fence)) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const html of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(html[1]);
  }
  return anchors;
}

export type Citation = { file: string; line: number; target: string; anchor: string | null };

/**
 * Every citation of one file: `docs/….md#anchor` written out (resolved from the repository root,
 * as comments name files), and in Markdown files every link to a local `.md` file or `#anchor`
 * (resolved from the file's folder, as GitHub does). Links inside fenced code are not links.
 */
export function citationsOf(file: string, text: string): Citation[] {
  const citations: Citation[] = [];
  const markdown = file.endsWith(".md");
  let fence: string | null = null;
  text.split("\n").forEach((line, index) => {
    const at = index + 1;
    const opening = /^\s*(```|~~~)/.exec(line);
    if (markdown && opening) {
      if (fence === null) fence = opening[1];
      else if (line.trim().startsWith(fence)) fence = null;
    }
    const links = new Set<number>();
    if (markdown && fence === null) {
      for (const link of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        const href = link[1].replace(/^<|>$/g, "");
        if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("/")) continue;
        const [target, anchor = null] = href.split("#", 2) as [string, string?];
        if (target && !target.endsWith(".md")) continue;
        const resolved = target ? path.posix.normalize(path.posix.join(path.posix.dirname(file), target)) : file;
        citations.push({ file, line: at, target: resolved, anchor });
        links.add(link.index! + 2);
      }
    }
    for (const ref of line.matchAll(/(?<![\w./-])docs\/[\w./-]*?\.md#([\w-]+)/g)) {
      if (links.has(ref.index!)) continue;
      const [target] = ref[0].split("#");
      citations.push({ file, line: at, target, anchor: ref[1] });
    }
  });
  return citations;
}

/** `file:line: what is dead` for every citation whose file or anchor does not exist. */
export function deadCitations(repo: string): string[] {
  const anchors = new Map<string, Set<string> | null>();
  const anchorsAt = (target: string) => {
    if (!anchors.has(target)) {
      const full = path.join(repo, target);
      anchors.set(target, existsSync(full) ? anchorsOf(readFileSync(full, "utf8")) : null);
    }
    return anchors.get(target)!;
  };
  const dead: string[] = [];
  for (const file of citingFiles(repo)) {
    for (const c of citationsOf(file, readFileSync(path.join(repo, file), "utf8"))) {
      const offered = anchorsAt(c.target);
      if (offered === null) dead.push(`${c.file}:${c.line}: ${c.target} does not exist`);
      else if (c.anchor !== null && !offered.has(c.anchor)) dead.push(`${c.file}:${c.line}: ${c.target} has no heading #${c.anchor}`);
    }
  }
  return dead;
}

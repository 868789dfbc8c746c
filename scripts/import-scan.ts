/**
 * The imports of source files, read as text and parsed with the TypeScript parser (syntax only:
 * nothing is imported, resolved by a compiler or type-checked). Used by scripts/architecture.test.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export type ImportRef = {
  /** Repo-relative path of the importing file. */
  file: string;
  /** Line of the statement (its first line, for a multi-line import). */
  line: number;
  /** As written: "@/server/db/client", "../jobs/x", "next/server". */
  specifier: string;
  /**
   * What it names: a repo path without extension or /index ("server/db/client") for "@/…" and
   * relative specifiers, else the package specifier ("next/server").
   */
  target: string;
  /** Erased at run time: `import type`, `export type … from`, every specifier `type`, or `import("x")` in a type. */
  typeOnly: boolean;
};

function targetOf(file: string, specifier: string): string {
  let target: string;
  if (specifier.startsWith("@/")) target = path.posix.normalize(specifier.slice(2));
  else if (specifier.startsWith("./") || specifier.startsWith("../") || specifier === "." || specifier === "..") {
    target = path.posix.join(path.posix.dirname(file), specifier);
  } else return specifier;
  return target.replace(/\.(tsx?|jsx?|mjs|cjs)$/, "").replace(/\/index$/, "").replace(/\/$/, "");
}

const allTypeOnly = (elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>) =>
  elements.length > 0 && elements.every((e) => e.isTypeOnly);

/** Every import of one file: import/export … from, import "x", import x = require("x"), import("x"), require("x"). */
export function scanImports(file: string, text: string): ImportRef[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const refs: ImportRef[] = [];
  const add = (node: ts.Node, specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    refs.push({ file, line, specifier: specifier.text, target: targetOf(file, specifier.text), typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        !!clause && (clause.isTypeOnly || (!clause.name && !!bindings && ts.isNamedImports(bindings) && allTypeOnly(bindings.elements)));
      add(node, node.moduleSpecifier, typeOnly);
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      add(node, node.moduleSpecifier, node.isTypeOnly || (!!clause && ts.isNamedExports(clause) && allTypeOnly(clause.elements)));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument)) add(node, argument.literal, true);
    } else if (ts.isCallExpression(node)) {
      const isDynamicImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === "require";
      if ((isDynamicImport || isRequire) && node.arguments.length === 1) add(node, node.arguments[0], false);
    }
    node.forEachChild(visit);
  };
  visit(sf);
  return refs;
}

const SOURCE = /\.(ts|tsx|mts|cts)$/;
const SKIP_DIRS = new Set(["node_modules", ".next", ".git", ".data", "generated"]);

/** The .ts/.tsx files under dir (repo-relative), without node_modules and generated code. */
export function sourceFiles(repo: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(repo, rel), { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(child);
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        out.push(child);
      }
    }
  };
  walk(dir);
  return out.sort();
}

/** file → text, for the files under the given folders. */
export function readSources(repo: string, dirs: string[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const dir of dirs) for (const file of sourceFiles(repo, dir)) files.set(file, readFileSync(path.join(repo, file), "utf8"));
  return files;
}

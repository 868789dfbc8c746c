/**
 * The route index (docs/routes.md, `npm run routes`): every URL the app serves and the line that
 * defines it, generated from the route tables themselves.
 *
 * - REST routes come from the families' RestApi objects (server/api/<family>/index.ts, imported:
 *   route modules open no database at import). Each route knows where its route() call is
 *   (`declaredAt`, captured by the kit; tsx and vitest map stacks to the .ts sources); the TypeScript
 *   parser then finds that call and reports the line of its `path:` property.
 * - tRPC procedures: names and query/mutation from appRouter at run time, file:line and procedure
 *   kind from the router source (parsed, never executed), checked against each other.
 * - App Router files (route.ts, page.tsx) from the app/ folder.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import type { RestApi } from "@/server/rest/kit";
import type { Route } from "@/server/rest/types";

export const REPO = realpathSync(path.resolve(import.meta.dirname, ".."));
export const ROUTES_DOC = "docs/routes.md";

export type Location = { file: string; line: number };
export type RestRoute = { method: string; path: string; fullPath: string; permission: string | null; summary: string; at: Location | null };
export type RestFamily = { title: string; basePath: string; exportName: string; definedAt: Location; routes: RestRoute[] };
export type Procedure = { name: string; type: string; kind: string; at: Location };
export type AppFile = { url: string; kind: "route" | "page"; methods: string[]; uses: string[]; at: Location };

const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const byMethod = (a: string, b: string) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b);
const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const fmt = (at: Location | null) => (at ? `${at.file}:${at.line}` : "(unknown)");

// ---------------------------------------------------------------- source files

const sources = new Map<string, ts.SourceFile>();

/** The parsed source of a repo-relative file (syntax only: nothing is type-checked or run). */
function sourceOf(file: string): ts.SourceFile {
  let sf = sources.get(file);
  if (!sf) {
    const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    sf = ts.createSourceFile(file, readFileSync(path.join(REPO, file), "utf8"), ts.ScriptTarget.Latest, true, kind);
    sources.set(file, sf);
  }
  return sf;
}

const lineOf = (node: ts.Node) => node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1;
const at = (node: ts.Node): Location => ({ file: node.getSourceFile().fileName, line: lineOf(node) });

function walk(node: ts.Node, visit: (node: ts.Node) => void) {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

/** A repo-relative path for an absolute path or file: URL, or null outside the repo. */
function repoRelative(file: string): string | null {
  let absolute = file.startsWith("file://") ? fileURLToPath(file) : file;
  try {
    absolute = realpathSync(absolute);
  } catch {
    return null;
  }
  const relative = path.relative(REPO, absolute);
  return relative.startsWith("..") || path.isAbsolute(relative) ? null : relative.split(path.sep).join("/");
}

/** The file an import specifier of `from` names: "@/…" or relative, with .ts/.tsx/index.ts tried. */
function resolveModule(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/")
    ? specifier.slice(2)
    : specifier.startsWith(".")
      ? path.posix.join(path.posix.dirname(from), specifier)
      : null;
  if (base === null) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    const absolute = path.join(REPO, candidate);
    try {
      if (statSync(absolute).isFile()) return candidate;
    } catch {
      // try the next candidate
    }
  }
  return null;
}

// ---------------------------------------------------------------- REST

/** The caller's frame of a stack captured with Error.captureStackTrace(obj, route). */
function callerFrame(stack: string | undefined): Location | null {
  for (const raw of (stack ?? "").split("\n").slice(1)) {
    const match = /^\s*at (?:.*? \()?(.+?):(\d+):\d+\)?\s*$/.exec(raw);
    if (!match) continue;
    const file = repoRelative(match[1]);
    return file ? { file, line: Number(match[2]) } : null;
  }
  return null;
}

/**
 * The `path:` line of the route() call for this method and path in the frame's file: the one that
 * starts on the frame's line, else the only one in the file. The frame's line alone is not enough: a
 * stack formatted after another module replaced Error.prepareStackTrace (Next.js's server modules,
 * loaded by other test files of the same worker) names the transformed code's line, not the source's.
 */
function pathLine(frame: Location, method: string, routePath: string): Location {
  const candidates: { call: number; path: Location }[] = [];
  walk(sourceOf(frame.file), (node) => {
    if (!ts.isCallExpression(node)) return;
    const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name : node.expression;
    const def = node.arguments[0];
    if (!ts.isIdentifier(callee) || callee.text !== "route" || !def || !ts.isObjectLiteralExpression(def)) return;
    const literal = (name: string) =>
      def.properties.find(
        (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name && ts.isStringLiteralLike(p.initializer),
      );
    const pathProp = literal("path");
    const methodProp = literal("method");
    if (!pathProp || (pathProp.initializer as ts.StringLiteral).text !== routePath) return;
    if (methodProp && (methodProp.initializer as ts.StringLiteral).text !== method) return;
    candidates.push({ call: lineOf(node.expression), path: at(pathProp) });
  });
  const onFrameLine = candidates.find((c) => c.call === frame.line);
  if (onFrameLine) return onFrameLine.path;
  return candidates.length === 1 ? candidates[0].path : frame;
}

function isRestApi(value: unknown): value is RestApi {
  const v = value as Partial<RestApi> | null;
  return !!v && typeof v.handle === "function" && Array.isArray(v.routes) && typeof v.family?.basePath === "string";
}

/** The line of `<name> = createRestApi(` (or of the declaration of name) in file. */
function exportLine(file: string, name: string): Location {
  let found: Location = { file, line: 1 };
  walk(sourceOf(file), (node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name) found = at(node);
  });
  return found;
}

/** Every REST family: the RestApi objects exported by server/api/<family>/index.ts. */
export async function restFamilies(): Promise<RestFamily[]> {
  const families: RestFamily[] = [];
  for (const dir of readdirSync(path.join(REPO, "server/api")).sort()) {
    const file = `server/api/${dir}/index.ts`;
    try {
      if (!statSync(path.join(REPO, file)).isFile()) continue;
    } catch {
      continue;
    }
    const module = (await import(path.join(REPO, file))) as Record<string, unknown>;
    for (const [exportName, api] of Object.entries(module)) {
      if (!isRestApi(api)) continue;
      const routes = api.routes.map((r: Route): RestRoute => {
        const frame = callerFrame(r.declaredAt?.stack);
        return {
          method: r.method,
          path: r.path,
          fullPath: api.family.basePath + r.path.replace(/:(\w+)/g, "{$1}"),
          permission: r.permission ?? null,
          summary: r.summary,
          at: frame && pathLine(frame, r.method, r.path),
        };
      });
      routes.sort((a, b) => byString(a.fullPath, b.fullPath) || byMethod(a.method, b.method));
      families.push({ title: api.family.title, basePath: api.family.basePath, exportName, definedAt: exportLine(file, exportName), routes });
    }
  }
  return families.sort((a, b) => byString(a.basePath, b.basePath));
}

/** Where the kit serves the API explorer ({basePath}/apidocs), if it can be found. */
function apiDocsAt(): Location | null {
  for (const name of readdirSync(path.join(REPO, "server/rest")).sort()) {
    if (!name.endsWith(".ts") || name.endsWith(".test.ts")) continue;
    let found: Location | null = null;
    walk(sourceOf(`server/rest/${name}`), (node) => {
      if (!found && ts.isFunctionDeclaration(node) && node.name?.text === "serveApiDocs") found = at(node);
    });
    if (found) return found;
  }
  return null;
}

// ---------------------------------------------------------------- tRPC

/** The declaration a name stands for in file: a top-level const, or an import followed to its module. */
function resolveName(file: string, name: string): { file: string; init: ts.Expression } | null {
  for (const statement of sourceOf(file).statements) {
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.name.text === name && d.initializer) return { file, init: d.initializer };
      }
    }
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings)) continue;
      const spec = bindings.elements.find((e) => e.name.text === name);
      if (!spec) continue;
      const target = resolveModule(file, statement.moduleSpecifier.text);
      return target ? resolveName(target, (spec.propertyName ?? spec.name).text) : null;
    }
  }
  return null;
}

/** router({ … }) → its object literal. */
function routerObject(init: ts.Expression): ts.ObjectLiteralExpression | null {
  if (!ts.isCallExpression(init)) return null;
  const callee = ts.isPropertyAccessExpression(init.expression) ? init.expression.name : init.expression;
  const arg = init.arguments[0];
  return ts.isIdentifier(callee) && callee.text === "router" && arg && ts.isObjectLiteralExpression(arg) ? arg : null;
}

/** `xProcedure.input(…).query(…)` → the procedure it starts from ("xProcedure"). */
function procedureKind(init: ts.Expression): string | null {
  let node: ts.Expression = init;
  if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return null;
  if (!["query", "mutation", "subscription"].includes(node.expression.name.text)) return null;
  while (ts.isCallExpression(node) || ts.isPropertyAccessExpression(node)) node = node.expression;
  return ts.isIdentifier(node) ? node.text : "?";
}

/**
 * A router built by a factory from a door's procedure (a twin mounted under both portals:
 * `webhooksRouter(portalProcedure("admin"))`, `const webhooksRouter = (procedure) => router({ … })`):
 * its object literal, the factory's parameter name and the door's text that stands for it.
 */
function factoryRouter(file: string, init: ts.Expression): { file: string; object: ts.ObjectLiteralExpression; parameter: string; door: string } | null {
  if (!ts.isCallExpression(init) || !ts.isIdentifier(init.expression) || init.expression.text === "router" || init.arguments.length !== 1) return null;
  const factory = resolveName(file, init.expression.text);
  if (!factory || !ts.isArrowFunction(factory.init) || factory.init.parameters.length !== 1) return null;
  const parameter = factory.init.parameters[0].name;
  const object = ts.isExpression(factory.init.body) ? routerObject(factory.init.body) : null;
  if (!object || !ts.isIdentifier(parameter)) return null;
  return { file: factory.file, object, parameter: parameter.text, door: init.arguments[0].getText() };
}

function staticProcedures(
  file: string,
  object: ts.ObjectLiteralExpression,
  prefix: string,
  out: Map<string, { kind: string; at: Location }>,
  door?: { parameter: string; text: string },
) {
  for (const prop of object.properties) {
    let init: ts.Expression;
    let initFile = file;
    if (ts.isPropertyAssignment(prop)) init = prop.initializer;
    else if (ts.isShorthandPropertyAssignment(prop)) init = prop.name;
    else continue;
    const key = prop.name!;
    const name = prefix + (ts.isIdentifier(key) || ts.isStringLiteral(key) ? key.text : key.getText());
    if (ts.isIdentifier(init)) {
      const resolved = resolveName(file, init.text);
      if (!resolved) continue;
      ({ init, file: initFile } = resolved);
    }
    const nested = routerObject(init);
    const built = nested ? null : factoryRouter(initFile, init);
    if (nested) staticProcedures(initFile, nested, `${name}.`, out, door);
    else if (built) staticProcedures(built.file, built.object, `${name}.`, out, { parameter: built.parameter, text: built.door });
    else {
      const kind = procedureKind(init) ?? "?";
      out.set(name, { kind: door && kind === door.parameter ? door.text : kind, at: at(prop) });
    }
  }
}

/** The portal's tRPC procedures (appRouter in server/trpc/router.ts). */
export async function trpcProcedures(): Promise<Procedure[]> {
  const { appRouter } = await import(path.join(REPO, "server/trpc/router.ts"));
  const runtime = (appRouter as { _def: { procedures: Record<string, { _def: { type: string } }> } })._def.procedures;
  const root = resolveName("server/trpc/router.ts", "appRouter");
  const object = root && routerObject(root.init);
  if (!root || !object) throw new Error("route index: appRouter = router({ … }) not found in server/trpc/router.ts");
  const found = new Map<string, { kind: string; at: Location }>();
  staticProcedures(root.file, object, "", found);
  const missing = Object.keys(runtime).filter((name) => !found.has(name));
  const extra = [...found.keys()].filter((name) => !(name in runtime));
  if (missing.length || extra.length) {
    throw new Error(`route index: tRPC procedures not matched to their source: ${[...missing, ...extra].join(", ")}`);
  }
  return Object.entries(runtime)
    .map(([name, p]) => ({ name, type: p._def.type, ...found.get(name)! }))
    .sort((a, b) => byString(a.name, b.name));
}

// ---------------------------------------------------------------- app/

function appFiles(dir = "app"): string[] {
  return readdirSync(path.join(REPO, dir), { withFileTypes: true })
    .sort((a, b) => byString(a.name, b.name))
    .flatMap((e) => (e.isDirectory() ? appFiles(`${dir}/${e.name}`) : [`${dir}/${e.name}`]));
}

/** app/v1/management/[[...path]]/route.ts → /v1/management/{...path} (route groups dropped). */
function appUrl(file: string): string {
  const segments = path.posix
    .dirname(file)
    .split("/")
    .slice(1)
    .filter((s) => !/^\(.*\)$/.test(s))
    .map((s) => s.replace(/^\[\[?(\.\.\.)?(\w+)\]?\]$/, "{$1$2}"));
  return `/${segments.join("/")}`;
}

const HTTP_METHODS = new Set(METHOD_ORDER);

/** The HTTP methods a route.ts exports, and the line of the first such export. */
function exportedMethods(sf: ts.SourceFile): { methods: string[]; line: Location } {
  const methods: string[] = [];
  let first: ts.Node | null = null;
  const add = (name: string, node: ts.Node) => {
    if (!HTTP_METHODS.has(name)) return;
    methods.push(name);
    first ??= node;
  };
  for (const s of sf.statements) {
    const exported = ts.canHaveModifiers(s) && ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (exported && ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) add(d.name.text, s);
        else if (ts.isObjectBindingPattern(d.name)) for (const e of d.name.elements) add(e.name.getText(), s);
      }
    } else if (exported && ts.isFunctionDeclaration(s) && s.name) {
      add(s.name.text, s);
    } else if (ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause)) {
      for (const e of s.exportClause.elements) add(e.name.text, s);
    }
  }
  methods.sort(byMethod);
  return { methods, line: first ? at(first) : { file: sf.fileName, line: 1 } };
}

/** The App Router's route handlers and pages. */
export function appRoutes(): AppFile[] {
  const out: AppFile[] = [];
  for (const file of appFiles()) {
    const name = path.posix.basename(file);
    if (/^route\.tsx?$/.test(name)) {
      const sf = sourceOf(file);
      const { methods, line } = exportedMethods(sf);
      const uses = sf.statements
        .filter((d): d is ts.ImportDeclaration => ts.isImportDeclaration(d) && !d.importClause?.isTypeOnly)
        .map((d) => (d.moduleSpecifier as ts.StringLiteral).text)
        .filter((s) => s.startsWith("@/server/") || !s.startsWith("@/"))
        .map((s) => (s.startsWith("@/") ? s.slice(2) : s));
      out.push({ url: appUrl(file), kind: "route", methods, uses, at: line });
    } else if (/^page\.tsx?$/.test(name)) {
      let line: Location = { file, line: 1 };
      for (const s of sourceOf(file).statements) {
        if (ts.isFunctionDeclaration(s) && ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) line = at(s);
      }
      out.push({ url: appUrl(file), kind: "page", methods: ["GET"], uses: [], at: line });
    }
  }
  return out.sort((a, b) => byString(a.url, b.url));
}

// ---------------------------------------------------------------- Markdown

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");

/** The whole index as Markdown (what `npm run routes` prints and docs/routes.md holds). */
export async function generateRouteIndex(): Promise<string> {
  const [families, procedures] = [await restFamilies(), await trpcProcedures()];
  const app = appRoutes();
  const docs = apiDocsAt();
  const lines: string[] = [
    "<!-- Generated by `npm run routes -- --write` from the route tables: do not edit. -->",
    "",
    "# Route index",
    "",
    "Every URL the application serves and the line that defines it. REST paths are full paths (base",
    "path included), served with or without a trailing slash; HEAD is answered as GET; `{param}` is a",
    "path parameter. For a REST route, the line is the `path:` of its `route({ … })` call.",
    "",
  ];

  for (const family of families) {
    const catchAll = app.find((a) => a.kind === "route" && a.url === `${family.basePath}/{...path}`);
    lines.push(`## ${family.title}: \`${family.basePath}\``, "");
    lines.push(
      `Route table \`${family.exportName}\` at ${fmt(family.definedAt)}` +
        (catchAll ? `, served by ${fmt(catchAll.at)}` : "") +
        `. API explorer: GET ${family.basePath}/apidocs (and ${family.basePath}/apidocs/openapi.json)` +
        (docs ? `, ${fmt(docs)}.` : "."),
      "",
    );
    lines.push("| Method | Path | Permission | Defined at | Summary |", "|---|---|---|---|---|");
    for (const r of family.routes) {
      lines.push(`| ${r.method} | ${r.fullPath} | ${r.permission ? `\`${r.permission}\`` : "any key"} | ${fmt(r.at)} | ${cell(r.summary)} |`);
    }
    lines.push("");
  }

  lines.push("## tRPC procedures: `/api/trpc/{name}`", "");
  lines.push("Queries by GET, mutations by POST (server/trpc/handler.ts); procedure kinds are in server/trpc/init.ts.", "");
  lines.push("| Name | Type | Procedure | Defined at |", "|---|---|---|---|");
  for (const p of procedures) lines.push(`| ${p.name} | ${p.type} | ${p.kind} | ${fmt(p.at)} |`);
  lines.push("");

  lines.push("## App Router route handlers", "");
  lines.push("| Path | Methods | Uses | Defined at |", "|---|---|---|---|");
  for (const a of app.filter((f) => f.kind === "route")) {
    lines.push(`| ${a.url} | ${a.methods.join(", ")} | ${a.uses.join(", ")} | ${fmt(a.at)} |`);
  }
  lines.push("");

  lines.push("## Pages", "");
  lines.push("| Path | Defined at |", "|---|---|");
  for (const a of app.filter((f) => f.kind === "page")) lines.push(`| ${a.url} | ${fmt(a.at)} |`);
  lines.push("");

  return lines.join("\n");
}

/**
 * Issue 23 rule 8: the OpenAPI documents as integrators' tools read them. Each document the service
 * serves is linted with Redocly's recommended rules (no errors; the warnings accepted are listed
 * with their reason) and a typed client is generated from it with openapi-typescript, whose output
 * must type-check.
 */
import { createConfig, lintFromString } from "@redocly/openapi-core";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { restApis } from "@/server/api/rest-apis";
import { config } from "@/server/config";
import { get } from "@/tests/http";
import { useEnv } from "@/tests/wait";

/**
 * Recommended-rule warnings accepted, by rule id, with why. (A run without
 * PUBLIC_BASE_URL names http://localhost:PORT as the server, which no-server-example.com warns of:
 * right for a developer's machine, so the documents here are made as a deployment makes them.)
 */
const ACCEPTED_WARNINGS: Record<string, string> = {
  "info-license": "the APIs serve the operator's own integrators under their contract: there is no public licence to name",
};

useEnv({ PUBLIC_BASE_URL: "https://rx.pharmacy-platform.test" });

describe.each(restApis.map((api) => [api.family.title, api] as const))("the %s API document, as tools read it", (_title, api) => {
  let source: string;
  let doc: any;
  beforeAll(async () => {
    const r = await get(`${api.family.basePath}/apidocs/openapi.json`);
    expect(r.status).toBe(200);
    doc = r.json;
    source = JSON.stringify(doc, null, 2);
  });

  it("names the service's base URL as its server", () => {
    expect(doc.servers).toEqual([{ url: config().baseUrl, description: expect.any(String) }]);
  });

  it("passes Redocly's recommended rules: no errors, only the accepted warnings", async () => {
    // Off: no-path-trailing-slash. The spec's paths end in "/" (its operations are called so), and so do ours.
    const lintConfig = await createConfig({ extends: ["recommended"], rules: { "no-path-trailing-slash": "off" } });
    const problems = await lintFromString({ source, absoluteRef: `${api.family.basePath}/openapi.json`, config: lintConfig });
    const shown = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(", ")}`);
    expect(shown.filter((p) => p.startsWith("error"))).toEqual([]);
    expect(problems.filter((p) => p.severity === "warn" && !(p.ruleId in ACCEPTED_WARNINGS)).map((p) => shown[problems.indexOf(p)])).toEqual([]);
  });

  it("generates a typed client with openapi-typescript that type-checks and has every path", async () => {
    const types = astToString(await openapiTS(source));
    for (const path of Object.keys(doc.paths)) expect(types).toContain(`"${path}"`);
    // The generated module, and a use of it, compiled on their own (strict).
    const firstPath = Object.keys(doc.paths)[0];
    const files: Record<string, string> = {
      "/client/api.ts": types,
      "/client/use.ts": `import type { paths } from "./api";\nexport type First = paths[${JSON.stringify(firstPath)}];\n`,
    };
    const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, types: [] };
    const host = ts.createCompilerHost(options);
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    host.readFile = (name) => files[name] ?? readFile(name);
    const directoryExists = host.directoryExists?.bind(host);
    host.fileExists = (name) => name in files || fileExists(name);
    host.directoryExists = (name) => name === "/client" || (directoryExists?.(name) ?? false);
    host.getSourceFile = ((original) => (name, languageVersion, ...rest) =>
      name in files ? ts.createSourceFile(name, files[name], languageVersion, true) : original(name, languageVersion, ...rest))(host.getSourceFile.bind(host));
    const program = ts.createProgram(Object.keys(files), options, host);
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(diagnostics).toEqual([]);
  });
});

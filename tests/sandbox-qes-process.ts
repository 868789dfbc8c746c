/**
 * One process of the sandbox-CA race test (server/pki/sandbox-ca.test.ts): ensures the sandbox QES
 * files of the folder given as argv[2], waits for the others (argv[3] is a file that exists once all
 * have answered), then opens the PKCS#12 with the password it was given and prints what it found.
 */
import { existsSync, readFileSync } from "node:fs";
import forge from "node-forge";
import { ensureSandboxQes } from "@/server/pki/sandbox-ca";

const [dataDir, goFile] = process.argv.slice(2) as [string, string];
const qes = await ensureSandboxQes(dataDir);
process.stdout.write("ready\n");
while (!existsSync(goFile)) await new Promise((r) => setTimeout(r, 20));
let opened: string;
try {
  const der = readFileSync(qes.signerP12Path).toString("binary");
  forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), qes.signerP12Password);
  opened = "opens";
} catch (error) {
  opened = `fails: ${(error as Error).message}`;
}
const caNow = readFileSync(qes.caCertPath, "utf8");
process.stdout.write(`${JSON.stringify({ opened, sameCa: caNow === qes.caCertPem })}\n`);

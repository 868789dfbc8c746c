/**
 * npm run sign-pdf -- <in.pdf> [out.pdf] [--p12 <file> --password=<password>]
 * npm run sign-pdf -- --sample [out.pdf]
 *
 * Signs a PDF the way order intake expects an inline prescription to be signed (a PAdES-style
 * detached CMS signature with signingTime and the certificate chain). Without --p12 it signs with
 * the sandbox signer of $DATA_DIR/qes (default .data; created on first use), whose signatures are
 * accepted for the sandbox organisation only. --sample signs a generated one-page demo prescription.
 *
 * Without out.pdf the result goes to $DATA_DIR/signed/ (ignored by git, like all of .data/), named
 * after the input (`<name>-signed.pdf`, `sample-prescription-signed.pdf`); the path is printed.
 * Relative paths are taken from the directory npm was started in.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { config } from "../server/config";
import { ensureSandboxQes } from "@/server/pki/sandbox-ca";
import { samplePrescriptionPdf } from "@/server/pki/sample-pdf";
import { signPdfWithP12 } from "@/server/pki/sign-pdf";
import { validateQesPdf } from "@/server/pki/validate-qes-pdf";

const usage = "usage: npm run sign-pdf -- <in.pdf> [out.pdf] [--p12 <file> --password=<password>]\n       npm run sign-pdf -- --sample [out.pdf]";
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { p12: { type: "string" }, password: { type: "string" }, sample: { type: "boolean", default: false } },
});
const [input, output] = values.sample ? [undefined, positionals[0]] : positionals;
const maxPositionals = values.sample ? 1 : 2;
if ((!values.sample && !input) || positionals.length > maxPositionals || (values.p12 !== undefined) !== (values.password !== undefined)) {
  console.error(usage);
  process.exit(2);
}

// npm runs scripts in the project root; INIT_CWD is where the command was typed.
const fromCwd = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
const dataDir = path.resolve(config().DATA_DIR);
const outputPath = output
  ? fromCwd(output)
  : path.join(dataDir, "signed", input ? `${path.basename(input, path.extname(input))}-signed.pdf` : "sample-prescription-signed.pdf");

try {
  const sandbox = values.p12 ? undefined : await ensureSandboxQes(dataDir);
  const p12 = readFileSync(values.p12 ? fromCwd(values.p12) : sandbox!.signerP12Path);
  const password = values.password ?? sandbox!.signerP12Password;
  const pdf = input ? readFileSync(fromCwd(input)) : await samplePrescriptionPdf();
  const signed = await signPdfWithP12(pdf, p12, password);
  mkdirSync(path.dirname(outputPath), { recursive: true });
  writeFileSync(outputPath, signed);
  const check = sandbox ? await validateQesPdf(signed, { trustAnchors: [sandbox.caCertPem] }) : undefined;
  const signer = check?.valid ? ` by ${check.signer.subject} (sandbox CA ${sandbox!.caCertPath})` : "";
  console.log(`Signed ${input ?? "a sample prescription"}${signer} → ${outputPath} (${signed.length} bytes)`);
  if (check && !check.valid) console.warn(`warning: the result does not validate (${check.code}): ${check.message}`);
} catch (error) {
  console.error(`sign-pdf: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

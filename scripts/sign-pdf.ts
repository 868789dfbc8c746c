/**
 * npm run sign-pdf -- <in.pdf> <out.pdf> [--p12 <file> --password <password>]
 * npm run sign-pdf -- --sample <out.pdf>
 *
 * Signs a PDF the way order intake expects an inline prescription to be signed (a PAdES-style
 * detached CMS signature with signingTime and the certificate chain). Without --p12 it signs with
 * the sandbox signer of $DATA_DIR/qes (default .data; created on first use), whose signatures are
 * accepted for the sandbox organisation only. --sample signs a generated one-page demo prescription.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { config } from "../server/config";
import { ensureSandboxQes } from "@/server/pki/sandbox-ca";
import { samplePrescriptionPdf } from "@/server/pki/sample-pdf";
import { signPdfWithP12 } from "@/server/pki/sign-pdf";
import { validateQesPdf } from "@/server/pki/validate-qes-pdf";

const usage = "usage: npm run sign-pdf -- <in.pdf> <out.pdf> [--p12 <file> --password <password>]\n       npm run sign-pdf -- --sample <out.pdf>";
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { p12: { type: "string" }, password: { type: "string" }, sample: { type: "boolean", default: false } },
});
const [input, output] = values.sample ? [undefined, positionals[0]] : positionals;
if (!output || (!values.sample && !input) || positionals.length !== (values.sample ? 1 : 2) || (values.p12 !== undefined) !== (values.password !== undefined)) {
  console.error(usage);
  process.exit(2);
}

try {
  const sandbox = values.p12 ? undefined : await ensureSandboxQes(path.resolve(config().DATA_DIR));
  const p12 = readFileSync(values.p12 ?? sandbox!.signerP12Path);
  const password = values.password ?? sandbox!.signerP12Password;
  const pdf = input ? readFileSync(input) : await samplePrescriptionPdf();
  const signed = await signPdfWithP12(pdf, p12, password);
  writeFileSync(output, signed);
  const check = sandbox ? await validateQesPdf(signed, { trustAnchors: [sandbox.caCertPem] }) : undefined;
  const signer = check?.valid ? ` by ${check.signer.subject} (sandbox CA ${sandbox!.caCertPath})` : "";
  console.log(`Signed ${input ?? "a sample prescription"}${signer} → ${output} (${signed.length} bytes)`);
  if (check && !check.valid) console.warn(`warning: the result does not validate (${check.code}): ${check.message}`);
} catch (error) {
  console.error(`sign-pdf: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

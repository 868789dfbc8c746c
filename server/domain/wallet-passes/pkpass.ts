import { PKPass } from "passkit-generator";
import { config } from "@/server/config";
import { passSigner } from "@/server/pki/wallet-certificates";
import { passImages, PASS_COLOUR } from "./pass-images";
import { findLivePassById, type WalletPassView } from "./queries";
import { isPassToken, passkitAuthenticationToken } from "./secrets";

export const PKPASS_CONTENT_TYPE = "application/vnd.apple.pkpass";

/** Where phones reach the PassKit web service (Apple appends /v1/devices/…, /v1/passes/…). */
export const passkitWebServiceUrl = () => `${config().baseUrl}/wallet/passkit`;

const rgb = ([r, g, b]: readonly number[]) => `rgb(${r}, ${g}, ${b})`;

/**
 * The pass as a signed Apple Wallet package (passkit-generator): a generic pass with the template's
 * name, the shop, the latest push notification's text (its changeMessage makes the phone announce a
 * new one), and a QR code of the barcode value; serialNumber is the pass uid, and webServiceURL with
 * authenticationToken let the phone register for updates. Signed with the configured pass signer
 * (or the sandbox chain).
 */
export async function buildPkpass(pass: WalletPassView): Promise<Buffer> {
  const signer = await passSigner();
  const passJson = {
    formatVersion: 1,
    passTypeIdentifier: signer.passTypeIdentifier,
    teamIdentifier: signer.teamIdentifier,
    serialNumber: pass.id,
    organizationName: pass.shopDisplayName,
    description: pass.templateDisplayName,
    logoText: pass.shopDisplayName,
    webServiceURL: passkitWebServiceUrl(),
    authenticationToken: passkitAuthenticationToken(pass.id),
    backgroundColor: rgb(PASS_COLOUR),
    foregroundColor: rgb([255, 255, 255]),
    labelColor: rgb([200, 230, 240]),
    sharingProhibited: true,
    // A deleted pass, fetched again by a phone through the web service, shows as void.
    voided: pass.deletedAt !== null,
    generic: {},
  };
  const pkpass = new PKPass(
    { "pass.json": Buffer.from(JSON.stringify(passJson)), ...passImages() },
    {
      wwdr: signer.wwdrPem,
      signerCert: signer.signerCertPem,
      signerKey: signer.signerKeyPem,
      signerKeyPassphrase: signer.signerKeyPassphrase,
    },
  );
  pkpass.primaryFields.push({ key: "pass", label: pass.shopDisplayName, value: pass.templateDisplayName });
  pkpass.secondaryFields.push({ key: "message", label: "Message", value: pass.lastMessage ?? "–", changeMessage: "%@" });
  pkpass.backFields.push({ key: "message_back", label: "Latest message", value: pass.lastMessage ?? "–" });
  pkpass.setBarcodes({ format: "PKBarcodeFormatQR", message: pass.barcodeValue, messageEncoding: "iso-8859-1" });
  return pkpass.getAsBuffer();
}

/** The live pass's package for a download URL's token (checked in constant time), or null: unknown, deleted or a wrong token. */
export async function downloadPkpass(passId: string, token: string): Promise<{ pkpass: Buffer; pass: WalletPassView } | null> {
  if (!isPassToken("download", passId, token)) return null;
  const pass = await findLivePassById(passId);
  return pass ? { pkpass: await buildPkpass(pass), pass } : null;
}

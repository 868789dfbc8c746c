import { createHash, webcrypto } from "node:crypto";
import { unzipSync } from "fflate";
import * as pkijs from "pkijs";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { reloadConfig } from "@/server/config";
import { holdRateLimitWindowForTests } from "@/server/rest/rate-limit";
import * as downloadRoute from "@/app/wallet/passes/[uid]/[file]/route";
import { passkitAuthenticationToken } from "@/server/domain/wallet-passes/secrets";
import { parseCertificate, pemCertificateBlocks } from "@/server/pki/pem";
import { passSigner } from "@/server/pki/wallet-certificates";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { del, post } from "@/tests/http";
import { createCustomer, createWalletTemplates } from "@/tests/wallet-passes";

let t: Tenant;
let templates: Awaited<ReturnType<typeof createWalletTemplates>>;
beforeAll(async () => {
  t = await createTenant();
  templates = await createWalletTemplates(t);
});

const engine = new pkijs.CryptoEngine({ name: "node", crypto: webcrypto as unknown as Crypto });

async function issuePass() {
  const { shopCustomerId } = await createCustomer(t);
  const r = await post("/v1/management/wallet-passes", {
    key: t.keys.management,
    body: { wallet_pass_template_uid: templates.plain.id, shop_customer_id: shopCustomerId, shop_identifier: t.shop.identifier },
  });
  expect(r.status).toBe(201);
  return r.json;
}

/** GET on a download URL through the app route, as Next.js calls it. */
async function download(url: string) {
  const { pathname } = new URL(url);
  const [, , , uid, file] = pathname.split("/");
  return downloadRoute.GET(new Request(url), { params: Promise.resolve({ uid, file }) });
}

describe("the .pkpass at ios_download_url", () => {
  it("is a signed Apple Wallet pass: pass.json with serial number, barcode, web service, and a signature over the manifest that verifies against the signer chain", async () => {
    const pass = await issuePass();
    const response = await download(pass.ios_download_url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.apple.pkpass");
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(
      ["icon.png", "icon@2x.png", "icon@3x.png", "logo.png", "logo@2x.png", "manifest.json", "pass.json", "signature"].sort(),
    );

    const passJson = JSON.parse(Buffer.from(files["pass.json"]).toString("utf8"));
    expect(passJson).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: "pass.example.rx-sandbox",
      teamIdentifier: "RXSANDBOX1",
      serialNumber: pass.uid,
      organizationName: "Shop",
      description: "Member card",
      webServiceURL: "http://localhost:3000/wallet/passkit",
      authenticationToken: passkitAuthenticationToken(pass.uid),
      barcodes: [{ format: "PKBarcodeFormatQR", message: pass.barcode_value, messageEncoding: "iso-8859-1" }],
    });
    expect(passJson.generic.primaryFields).toEqual([{ key: "pass", label: "Shop", value: "Member card" }]);
    expect(passJson.generic.secondaryFields).toEqual([{ key: "message", label: "Message", value: "–", changeMessage: "%@" }]);

    // Every file is in the manifest with its SHA-1.
    const manifest = JSON.parse(Buffer.from(files["manifest.json"]).toString("utf8")) as Record<string, string>;
    for (const [name, content] of Object.entries(files)) {
      if (name === "manifest.json" || name === "signature") continue;
      expect(manifest[name]).toBe(createHash("sha1").update(content).digest("hex"));
    }

    // The detached PKCS#7 signature verifies over manifest.json, chained to the sandbox WWDR CA.
    const signer = await passSigner();
    const contentInfo = pkijs.ContentInfo.fromBER(files.signature);
    const signedData = new pkijs.SignedData({ schema: contentInfo.content });
    const wwdr = parseCertificate(pemCertificateBlocks(signer.wwdrPem)[0]);
    const verified = await signedData.verify(
      { signer: 0, data: files["manifest.json"].slice().buffer, trustedCerts: [wwdr], checkChain: true, checkDate: new Date() },
      engine,
    );
    expect(verified).toBe(true);
    // A changed manifest does not verify.
    const tampered = Buffer.from(files["manifest.json"]);
    tampered[2] ^= 1;
    const tamperedBytes = tampered.buffer.slice(tampered.byteOffset, tampered.byteOffset + tampered.length);
    await expect(signedData.verify({ signer: 0, data: tamperedBytes, trustedCerts: [wwdr], checkChain: true }, engine)).rejects.toMatchObject({
      message: expect.stringMatching(/message digest/i),
    });
  });

  it("android_download_url serves the same pass", async () => {
    const pass = await issuePass();
    const response = await download(pass.android_download_url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.apple.pkpass");
  });

  it("is the HTML 404 for a wrong token, another pass's token, a missing .pkpass suffix, or a deleted pass", async () => {
    const pass = await issuePass();
    const otherPass = await issuePass();
    const url = new URL(pass.ios_download_url);
    const token = url.pathname.split("/")[4];
    const wrong = [
      pass.ios_download_url.replace(/[A-Za-z0-9_-]{43}\.pkpass$/, `${"A".repeat(43)}.pkpass`),
      pass.ios_download_url.replace(pass.uid, otherPass.uid),
      pass.ios_download_url.replace(".pkpass", ""),
      `http://localhost:3000/wallet/passes/${pass.uid}/${token.slice(0, 10)}.pkpass`,
    ];
    for (const u of wrong) {
      const r = await download(u);
      expect(r.status).toBe(404);
      expect(r.headers.get("content-type")).toContain("text/html");
    }
    await del(`/v1/management/wallet-passes/${pass.uid}`, { key: t.keys.management });
    expect((await download(pass.ios_download_url)).status).toBe(404);
  });

  describe("rate limit", () => {
    // The test's requests in one window, however slowly they are served (server/rest/rate-limit.test.ts).
    beforeEach(() => holdRateLimitWindowForTests(3600));
    afterEach(() => {
      holdRateLimitWindowForTests();
      process.env.RATE_LIMIT_PER_SECOND = "1000000";
      reloadConfig();
    });

    it("counts downloads per client address like the APIs do (each download signs a package): the HTML 429 over the limit", async () => {
      const pass = await issuePass();
      process.env.RATE_LIMIT_PER_SECOND = "2";
      reloadConfig();
      const from = (address: string) => downloadRoute.GET(new Request(pass.ios_download_url, { headers: { "x-forwarded-for": address } }), {
        params: Promise.resolve({ uid: pass.uid, file: new URL(pass.ios_download_url).pathname.split("/")[4] }),
      });
      // At once: the limit is counted before the package is signed, so all three are counted in this window.
      const statuses = (await Promise.all([0, 1, 2].map(() => from("203.0.113.7")))).map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 429]);
      expect((await from("203.0.113.8")).status).toBe(200);
    });
  });
});

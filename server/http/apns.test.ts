import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passSigner, type PassSigner } from "@/server/pki/wallet-certificates";
import { startApnsServer } from "@/tests/apns-server";
import { pushPassUpdates, type ApnsOptions } from "./apns";

let apns: Awaited<ReturnType<typeof startApnsServer>>;
let signer: PassSigner;
let options: ApnsOptions;

beforeAll(async () => {
  apns = await startApnsServer();
  signer = await passSigner();
  options = { host: apns.host, topic: signer.passTypeIdentifier, certPem: signer.signerCertPem, keyPem: signer.signerKeyPem, caPem: apns.caPem };
});
afterAll(() => apns.close());

describe("the APNs pass update sender", () => {
  it("posts an empty JSON payload to /3/device/{token} with apns-topic, over HTTP/2 with the pass signer as client certificate", async () => {
    const outcomes = await pushPassUpdates(options, ["aa11", "bb22"]);
    expect([...outcomes]).toEqual([
      ["aa11", "delivered"],
      ["bb22", "delivered"],
    ]);
    const [first, second] = apns.pushes.slice(-2);
    expect(first).toMatchObject({ path: "/3/device/aa11", body: "{}", clientCommonName: "Pass Type ID: pass.example.rx-sandbox" });
    expect(first.headers).toMatchObject({ ":method": "POST", "apns-topic": "pass.example.rx-sandbox", "content-type": "application/json" });
    expect(second.path).toBe("/3/device/bb22");
  });

  it("reports a token APNs no longer knows (410, or 400 BadDeviceToken) as unregistered", async () => {
    apns.answer("gone1", 410, "Unregistered");
    apns.answer("bad1", 400, "BadDeviceToken");
    const outcomes = await pushPassUpdates(options, ["gone1", "bad1"]);
    expect(Object.fromEntries(outcomes)).toEqual({ gone1: "unregistered", bad1: "unregistered" });
  });

  it("fails on any other answer, an untrusted server certificate, or no server", async () => {
    apns.answer("busy1", 503, "ServiceUnavailable");
    await expect(pushPassUpdates(options, ["busy1"])).rejects.toThrow("APNs answered 503 ServiceUnavailable");
    await expect(pushPassUpdates({ ...options, caPem: undefined }, ["aa11"])).rejects.toThrow(/APNs .*(certificate|failed)/);
    await expect(pushPassUpdates({ ...options, host: "127.0.0.1:1" }, ["aa11"])).rejects.toThrow(/ECONNREFUSED/);
  });
});

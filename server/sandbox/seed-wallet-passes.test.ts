import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { database } from "@/server/db/client";
import { get } from "@/tests/http";
import { demoFilePath, seedSandbox, type DemoFile } from "./seed";

const readDemo = () => JSON.parse(readFileSync(demoFilePath(), "utf8")) as DemoFile;

describe("sandbox wallet pass templates", () => {
  beforeAll(() => database());

  it("gives the demo shop two templates in demo.json, one plain and one requiring a signed prescription, once", async () => {
    const db = await database();
    await seedSandbox(db);
    const demo = readDemo();
    expect(demo.wallet_pass_templates).toEqual([
      { uid: expect.any(String), requires_prescription: false },
      { uid: expect.any(String), requires_prescription: true },
    ]);
    const listed = await get("/v1/management/wallet-passes/templates", { key: demo.keys.management, query: { shop_identifier: demo.shop.identifier } });
    expect(listed.status).toBe(200);
    expect(listed.json.data.map((t: { uid: string; requires_signed_prescription: boolean }) => ({ uid: t.uid, requires_prescription: t.requires_signed_prescription }))).toEqual(
      demo.wallet_pass_templates,
    );

    await seedSandbox(db);
    expect(readDemo().wallet_pass_templates).toEqual(demo.wallet_pass_templates);
    expect(await db.walletPassTemplate.count()).toBe(2);
  });
});

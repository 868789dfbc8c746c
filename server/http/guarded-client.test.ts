import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reloadConfig } from "@/server/config";
import { withPrivateTargetsRefused } from "@/tests/ssrf";
import { guardedRequest } from "./guarded-client";
import { BlockedTargetError } from "./target-guard";
import { postWebhook } from "./webhook-sender";

/** A loopback listener the guard must keep every request from (WEBHOOK_ALLOW_PRIVATE_TARGETS off). */
let server: Server;
let port: number;
const received: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(req.url ?? "");
    res.writeHead(200).end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const blockedCause = (error: unknown) => {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) if (e instanceof BlockedTargetError) return e;
  return null;
};

const loopbackForms = () => [
  `http://localhost:${port}/name`, // a name resolving to 127.0.0.1 (as after a DNS change)
  `http://127.0.0.1:${port}/v4`,
  `http://[::ffff:127.0.0.1]:${port}/mapped`,
  `http://[::7f00:1]:${port}/compatible`,
];

describe("the guarded client", () => {
  it("connects to nothing the guard refuses, at every request, and says why", async () => {
    await withPrivateTargetsRefused(async () => {
      for (const target of loopbackForms()) {
        const error = await guardedRequest(new URL(target), { method: "GET", timeoutMs: 5000 }).then(
          () => null,
          (e: unknown) => e,
        );
        expect(blockedCause(error), target).toBeInstanceOf(BlockedTargetError);
      }
    });
    expect(received).toEqual([]);
  });

  it("webhook delivery records blocked_target for each such target and sends nothing", async () => {
    await withPrivateTargetsRefused(async () => {
      for (const target of loopbackForms()) {
        const outcome = await postWebhook({ target, body: "{}", headers: { "content-type": "application/json" }, timeoutMs: 5000 });
        expect(outcome, target).toMatchObject({ ok: false, status: null, errorClass: "blocked_target" });
      }
    });
    expect(received).toEqual([]);
  });

  it("reaches a loopback listener when private targets are allowed (the operator's choice for local receivers)", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
    reloadConfig();
    try {
      const response = await guardedRequest(new URL(`http://localhost:${port}/allowed`), { method: "GET", timeoutMs: 5000 });
      expect(response.statusCode).toBe(200);
      await response.body.dump();
      expect(received).toEqual(["/allowed"]);
    } finally {
      delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
      reloadConfig();
    }
  });
});

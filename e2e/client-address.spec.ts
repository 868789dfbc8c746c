/**
 * Client addresses through the production entry (scripts/serve.ts) and the real sign-in
 * (next-auth's credentials callback): a server of this spec's own, behind a "proxy" it trusts
 * (TRUSTED_PROXIES=loopback: the test itself, which writes X-Forwarded-For as a proxy would append
 * it). docs/security.md#client-addresses-and-throttling.
 */
import { once } from "node:events";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, request as playwrightRequest, test, type Page } from "@playwright/test";
import { ownServerEnv, signalOwnServer, startOwnServer, type OwnServer } from "./own-server";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.E2E_PORT ?? 3100) + 60;
const base = `http://127.0.0.1:${port}`;
const dataDir = path.join(root, ".data", `e2e-client-address-${port}`);
let server: OwnServer | null = null;

test.beforeAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  server = await startOwnServer(await ownServerEnv({ port, dataDir, databaseSuffix: "client_address", extra: { TRUSTED_PROXIES: "loopback" } }));
});
test.afterAll(async () => {
  if (!server) return;
  const exited = once(server.process, "exit");
  signalOwnServer(server, "SIGTERM");
  await exited;
});

const admin = () => (JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8")) as { users: { admin: { email: string; password: string } } }).users.admin;

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/signin?callbackUrl=%2Fadmin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** One sign-in through next-auth's credentials callback, as the form posts it; the error code it answers, or "" on success. */
async function attempt(forwardedFor: string, email: string, password: string): Promise<string> {
  const client = await playwrightRequest.newContext({ baseURL: base, extraHTTPHeaders: { "x-forwarded-for": forwardedFor } });
  try {
    const { csrfToken } = (await (await client.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const answer = await client.post("/api/auth/callback/credentials", { form: { email, password, csrfToken, json: "true" } });
    const { url } = (await answer.json()) as { url: string };
    return new URL(url).searchParams.get("error") ?? "";
  } finally {
    await client.dispose();
  }
}

test("behind a trusted proxy: hops the client wrote buy nothing, and a browser that signed in before still gets in from an address an attacker blocked", async ({ browser }) => {
  test.setTimeout(240_000);
  const { email, password } = admin();
  const office = "198.51.100.60"; // the shared address (a NAT) as the proxy reports it

  // A colleague's browser signs in from the office: it gets the device cookie.
  const known = await browser.newContext({ baseURL: base, extraHTTPHeaders: { "x-forwarded-for": office } });
  const knownPage = await known.newPage();
  await signIn(knownPage, email, password);
  await expect(knownPage).toHaveURL(/\/admin$/);
  const device = (await known.cookies()).find((c) => c.name === "rx-sign-in-device");
  expect(device).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/api/auth" });

  // An attacker in the office guesses the admin's password, a new forged hop each time: throttled after 10.
  const guesses = [];
  for (let i = 0; i < 30; i++) guesses.push(await attempt(`203.0.113.${i + 1}, ${office}`, email, `wrong ${i}`));
  expect(guesses.slice(0, 10)).toEqual(Array(10).fill("CredentialsSignin"));
  for (const code of guesses.slice(10)) expect(code).toMatch(/^TooManyAttempts:\d+$/);

  // …then stuffs credentials until the office's address is blocked for the day.
  for (let i = 0; i < 100; i++) await attempt(office, `nobody-${i}@demo.example`, "whatever-password");
  expect(await attempt(office, "someone-else@demo.example", "whatever-password")).toMatch(/^TooManyAttempts:\d+$/);

  // A browser without the device cookie in the office is refused, even with the right password…
  const stranger = await browser.newContext({ baseURL: base, extraHTTPHeaders: { "x-forwarded-for": office } });
  const strangerPage = await stranger.newPage();
  await signIn(strangerPage, email, password);
  await expect(strangerPage.locator("form").getByRole("alert")).toHaveText(/^Too many attempts, try again in [\d,]+ minutes?\.$/);

  // …while the colleague's browser signs out and in again.
  await knownPage.getByRole("button", { name: "Sign out" }).click();
  await expect(knownPage).toHaveURL(/\/signin/);
  await signIn(knownPage, email, password);
  await expect(knownPage).toHaveURL(/\/admin$/);

  // Another client behind the proxy is another address.
  expect(await attempt("198.51.100.61", email, password)).toBe("");
  await Promise.all([known.close(), stranger.close()]);
});

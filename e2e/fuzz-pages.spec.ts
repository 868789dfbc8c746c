import net from "node:net";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { readDemoFile, signInAs } from "./demo";

/**
 * The fuzzing corpus for what only the built server serves (server/fuzz/fuzz.test.ts does the
 * doors it can call in-process): every portal page with a dynamic segment, given segments that are
 * not text or name nothing, and odd queries, signed in as the role the page is for and signed out;
 * next-auth's routes with malformed paths and bodies; bodies over the entry's caps. Never a 5xx, and
 * at least the planned number of requests sent.
 */

/** Every page route of app/ with a dynamic segment, and who may open it. */
const DYNAMIC_PAGES = [
  { path: "/admin/orders/:uid", role: "admin" },
  { path: "/admin/prescriptions/:uid", role: "admin" },
  { path: "/admin/issues/:uid", role: "admin" },
  { path: "/admin/pharmacies/:uid", role: "admin" },
  { path: "/admin/doctors/:uid", role: "admin" },
  { path: "/admin/catalogue/products/:uid", role: "admin" },
  { path: "/admin/questionnaires/:uid", role: "admin" },
  { path: "/admin/doctor/requests/:uid", role: "doctor" },
  { path: "/pharmacy/orders/:uid", role: "pharmacist" },
  { path: "/invitation/:token", role: null },
  { path: "/reset-password/:token", role: null },
  { path: "/checkout/:token", role: null },
] as const;
/** Static pages, for odd queries. */
const STATIC_PAGES = ["/", "/signin", "/admin", "/pharmacy", "/admin/doctor"];

const SEGMENTS = ["%FF", "%C0%AF", "%00", "a%00b", "%ED%A0%80", "%E2%82", "%2e%2e", "x".repeat(3000), "00000000-0000-0000-0000-000000000000", "%20", "%2F", "<script>"];
const QUERIES = ["", "?callbackUrl=%FF", "?x=%00", "?page=-1&limit=99999999999", "?%C0%AF=1", `?q=${"y".repeat(5000)}`];

type Failure = { request: string; status: number };

async function probe(request: APIRequestContext, failures: Failure[], method: "GET" | "POST", url: string, body?: { data: string; contentType: string }) {
  const response =
    method === "GET"
      ? await request.get(url, { maxRedirects: 0 })
      : await request.post(url, { maxRedirects: 0, data: body?.data ?? "", headers: { "content-type": body?.contentType ?? "application/x-www-form-urlencoded" } });
  if (response.status() >= 500) failures.push({ request: `${method} ${url.slice(0, 200)}`, status: response.status() });
  await response.dispose();
}

async function signedIn(page: Page, role: "admin" | "doctor" | "pharmacist"): Promise<APIRequestContext> {
  const { users } = readDemoFile();
  await signInAs(page, users[role], role === "pharmacist" ? "/pharmacy" : role === "doctor" ? "/admin/doctor" : "/admin");
  return page.request;
}

test.describe.configure({ timeout: 300_000 });

test("portal pages answer malformed segments and queries without a 5xx, signed in and signed out", async ({ page, request }) => {
  const failures: Failure[] = [];
  let sent = 0;
  for (const role of ["admin", "doctor", "pharmacist", null] as const) {
    const context = role ? await signedIn(page, role) : request;
    const pages = DYNAMIC_PAGES.filter((p) => p.role === role || role === null);
    for (const { path } of pages) {
      for (const segment of SEGMENTS) {
        await probe(context, failures, "GET", `${path.replace(/:\w+/, segment)}${QUERIES[sent % QUERIES.length]}`);
        sent++;
      }
    }
    for (const path of STATIC_PAGES) {
      for (const query of QUERIES) {
        await probe(context, failures, "GET", `${path}${query}`);
        sent++;
      }
    }
    if (role) await page.context().clearCookies();
  }
  console.log(`fuzz pages: ${sent} requests, ${failures.length} failures`);
  expect(failures).toEqual([]);
  // 11 dynamic pages signed out, 8 signed in, each with every segment; the static pages with every query.
  expect(sent).toBeGreaterThanOrEqual((11 + 8) * SEGMENTS.length + 4 * STATIC_PAGES.length * QUERIES.length);
});

test("next-auth's routes answer malformed paths, methods and bodies without a 5xx or an internal message", async ({ request }) => {
  const failures: Failure[] = [];
  let sent = 0;
  const paths = ["%FF", "%C0%AF", "callback/credentials", "callback/%FF", "signin/credentials", "signin/unknown", "signout", "session", "csrf", "providers", "_log", "error", "unknown", "callback/credentials%00"];
  const bodies = [
    { data: "email=a%40b.example&password=x&csrfToken=t", contentType: "application/x-www-form-urlencoded" },
    { data: "email=a%00b&password=x", contentType: "application/x-www-form-urlencoded" },
    { data: "{not json", contentType: "application/json" },
    { data: "[1]", contentType: "application/json" },
    { data: '{"email":"a@b.example","password":"x","csrfToken":"t","json":"true"}', contentType: "application/json" },
    { data: "--b\r\nx", contentType: "multipart/form-data; boundary=b" },
    { data: "x".repeat(70_000), contentType: "application/x-www-form-urlencoded" },
  ];
  for (const path of paths) {
    await probe(request, failures, "GET", `/api/auth/${path}`);
    sent++;
    for (const body of bodies) {
      await probe(request, failures, "POST", `/api/auth/${path}`, body);
      sent++;
    }
  }
  expect(failures).toEqual([]);
  expect(sent).toBe(paths.length * (1 + bodies.length));

  const callback = await request.get("/api/auth/callback/credentials", { maxRedirects: 0 });
  expect(callback.status()).toBe(405);
  expect(await callback.text()).not.toContain("not supported");
  expect((await request.get("/api/auth/%FF", { maxRedirects: 0 })).status()).toBe(404);
  expect((await request.post("/api/auth/%FF", { maxRedirects: 0 })).status()).toBe(404);
});

/**
 * Sends a head and part of its body on a raw connection, then waits for the answer and for the
 * server to close the connection while the rest of the body is still owed: it stopped reading.
 */
function partialUpload(head: string, part: Buffer): Promise<string> {
  const port = Number(new URL(test.info().project.use.baseURL!).port);
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = net.connect(port, "127.0.0.1", () => socket.write(Buffer.concat([Buffer.from(head), part])));
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(answer));
    // A hang guard only: the server answers at once.
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept reading; got: ${answer.slice(0, 200)}`));
    }, 20_000).unref();
  });
}

test("a body over the cap of next-auth, PassKit or a page gets 413 and its connection closed, unread", async () => {
  for (const path of ["/api/auth/callback/credentials", "/wallet/passkit/v1/log", "/admin"]) {
    // A JSON-typed 33 MiB body is declared; 256 KiB of it is sent.
    const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${33 * 1024 * 1024}\r\n\r\n`;
    const answer = await partialUpload(head, Buffer.alloc(256 * 1024, "a"));
    expect(answer, path).toMatch(/^HTTP\/1\.1 413 /);
  }
  const chunked = await partialUpload("POST /api/auth/callback/credentials HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n", Buffer.from("40000\r\n"));
  expect(chunked).toMatch(/^HTTP\/1\.1 411 /);
});

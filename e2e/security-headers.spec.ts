/**
 * Every page and API answer of the production server carries its security headers; the pages, the
 * PDF viewer, the survey preview and the API explorers work under their policies (a CSP violation
 * anywhere fails the test); a page of ours framed by another origin is refused; and sign-in never
 * lands on another origin, whatever callbackUrl it was given (docs/security.md#security-headers-and-redirects).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { orderWithAnamnesis, prescriptionCanvas, readDemoFile, signInAs } from "./demo";
import { recordViolations } from "./page-checks";

const demo = () => readDemoFile();
const tag = () => Math.random().toString(36).slice(2, 8);

/** Opens `path` and waits until the page has settled (its requests done). */
async function visit(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(400);
  await page.waitForLoadState("networkidle");
}

/** An order waiting for a doctor, with its anamnesis: the request page shows the survey answers and the PDF. */
async function doctorRequest(request: APIRequestContext): Promise<string> {
  const lastName = `Csp${tag()}`;
  return (await orderWithAnamnesis(request, demo(), lastName, `e2e-csp-${lastName.toLowerCase()}`)).prescriptionUid;
}

const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** The headers of every answer; a policy that forbids framing unless `policy` is false (build files have none). */
function expectSecured(headers: Record<string, string>, what: string, policy = true) {
  expect(headers["x-frame-options"], what).toBe("DENY");
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
  if (policy) expect(headers["content-security-policy"], what).toMatch(/frame-ancestors 'none'/);
}

test("pages, API answers and build files of the production server carry their security headers", async ({ request }) => {
  const page = await request.get("/signin");
  expectSecured(page.headers(), "a page");
  const csp = page.headers()["content-security-policy"];
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce, csp).toBeTruthy();
  // Next.js put the request's nonce on the page's scripts.
  const html = await page.text();
  expect(html).toContain(`nonce="${nonce}"`);
  expect((await request.get("/signin")).headers()["content-security-policy"]).not.toContain(nonce);

  for (const path of ["/api/auth/csrf", "/api/auth/session", "/api/auth/providers", "/v1/management/nope", "/v1/management/orders/", "/api/trpc/no.such.procedure", "/wallet/passkit/v1/log"]) {
    const answer = await request.get(path);
    expectSecured(answer.headers(), path);
    expect(answer.headers()["content-security-policy"], path).toBe(API_POLICY);
  }
  const script = /src="(\/_next\/static\/[^"]+\.js)"/.exec(html)![1];
  for (const path of [script, "/favicon.ico"]) {
    const answer = await request.get(path);
    expect(answer.status(), path).toBe(200);
    expectSecured(answer.headers(), path, false);
  }
});

test("405 and OPTIONS answers of the route files, and a Shopify shop segment that is not text, carry them too (issue 36)", async ({ request }) => {
  const cases: [string, string, number][] = [
    ["PUT", "/api/trpc/x", 405],
    ["OPTIONS", "/api/trpc/x", 204],
    ["PUT", "/api/auth/x", 405],
    ["OPTIONS", "/api/auth/x", 204],
    ...(["GET", "PUT", "DELETE"] as const).map((m): [string, string, number] => [m, "/api/shopify/webhooks/x", 405]),
    ["OPTIONS", "/api/shopify/webhooks/x", 204],
  ];
  for (const [method, path, status] of cases) {
    const answer = await request.fetch(path, { method });
    expect(answer.status(), `${method} ${path}`).toBe(status);
    expectSecured(answer.headers(), `${method} ${path}`);
  }
  // Undecodable or NUL shop segments: the 404 of an unknown path, not Next.js's 500.
  for (const segment of ["%FF", "%C0%AF", "%ED%A0%80", "%E2%82", "%00"]) {
    const answer = await request.post(`/api/shopify/webhooks/${segment}`, { data: "{}" });
    expect(answer.status(), segment).toBe(404);
    expectSecured(answer.headers(), segment);
  }
});

test("an early refusal of a large body closes its connection instead of resetting it later (issue 36)", async ({ baseURL }) => {
  const { hostname, port } = new URL(baseURL!);
  const size = 400 * 1024;
  const answer = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    const req = http.request({ host: hostname, port, method: "POST", path: "/v1/management/orders/", agent: new http.Agent({ keepAlive: true }), headers: { "content-type": "application/json", "content-length": size } }, (res) => {
      res.resume();
      resolve({ status: res.statusCode!, connection: res.headers.connection });
    });
    req.on("error", reject);
    req.end(Buffer.alloc(size, "x"));
  });
  expect(answer).toEqual({ status: 401, connection: "close" });
});

test("a page of ours in another origin's frame is refused", async ({ page, baseURL }) => {
  // Another origin on this machine (another port): a page that frames our sign-in page.
  const framer = http.createServer((_, res) =>
    res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><iframe src="${baseURL}/signin" width="600" height="400"></iframe>`),
  );
  await new Promise<void>((resolve) => framer.listen(0, "127.0.0.1", resolve));
  try {
    const refused = page.waitForEvent("console", (m) => /frame-ancestors 'none'|Refused to (display|frame)/.test(m.text()));
    await page.goto(`http://127.0.0.1:${(framer.address() as AddressInfo).port}/`);
    await refused;
    await expect(page.frameLocator("iframe").getByRole("heading", { name: "Sign in" })).toHaveCount(0);
  } finally {
    framer.close();
  }
});

test("the PDF viewer, the survey preview and the API explorers work under their policies", async ({ browser }) => {
  // Eight page loads, two sign-ins and pdf.js: a wider hang guard than one page's.
  // Every portal page under its policy, for each role: e2e/every-page.spec.ts.
  const d = demo();
  const context = await browser.newContext();
  const violations = await recordViolations(context);
  const page = await context.newPage();

  for (const path of ["/", "/signin", `/checkout/not-a-token-${tag()}`]) await page.goto(path).then(() => page.waitForLoadState("networkidle"));
  for (const family of ["/v1/management", "/v2/public-api", "/v1/external_pharmacy_api", "/v1/external-pharmacy-api-v1", "/api/v0/patient"]) {
    await visit(page, `${family}/apidocs`);
    await expect(page.locator(".opblock").first()).toBeVisible();
  }

  // The questionnaire preview (survey-react-ui) renders the anamnesis's questions.
  await signInAs(page, d.users.admin, "/admin");
  await visit(page, `/admin/questionnaires/${d.questionnaire_uid}`);
  await expect(page.getByTestId("survey-preview")).toContainText("Do you have any known allergies?");

  // The doctors' workspace: the request with its anamnesis and its prescription PDF (pdf.js and its worker).
  const prescriptionUid = await doctorRequest(page.request);
  await context.clearCookies();
  await signInAs(page, d.users.doctor, "/admin/doctor");
  await visit(page, `/admin/doctor/requests/${prescriptionUid}`);
  await expect(page.getByTestId("anamnesis-answers")).toContainText("Do you have any known allergies?");
  const canvas = await prescriptionCanvas(page);
  await expect(canvas).toBeVisible();
  // Drawn, not blank: some pixel of the page is not white.
  await expect
    .poll(() => canvas.evaluate((c: HTMLCanvasElement) => c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data.some((v, i) => i % 4 !== 3 && v < 200)))
    .toBe(true);

  expect(violations).toEqual([]);
  await context.close();
});

/** Signs the admin in from `/signin?callbackUrl=<encoded>` in a fresh browser; the URL it lands on. */
async function landingAfterSignIn(browser: Browser, encoded: string): Promise<URL> {
  const context = await browser.newContext();
  // Should the browser leave, it finds a page there instead of a DNS failure.
  await context.route((url) => url.hostname === "evil.example", (route) => route.fulfill({ contentType: "text/html", body: "<h1>evil</h1>" }));
  const page = await context.newPage();
  await page.goto(`/signin?callbackUrl=${encoded}`);
  const { admin } = demo().users;
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname !== "/signin");
  await page.waitForLoadState();
  const landed = new URL(page.url());
  await context.close();
  return landed;
}

test("sign-in never lands on another origin, whatever the callbackUrl", async ({ browser, baseURL }) => {
  test.setTimeout(300_000);
  const origin = new URL(baseURL!).origin;
  const payloads = ["%2F%09%2Fevil.example", "%2F%0A%2Fevil.example", "%2F%0D%2Fevil.example", "%2F%09%5Cevil.example", "%2F%2Fevil.example", "https%3A%2F%2Fevil.example", "%2F%5Cevil.example", "%2F.%2F%2Fevil.example"];
  for (const payload of payloads) {
    const landed = await landingAfterSignIn(browser, payload);
    expect(landed.origin, `${payload} → ${landed.href}`).toBe(origin);
  }
  // A callback URL of this origin is still honoured.
  expect((await landingAfterSignIn(browser, "%2Fadmin%2Forders")).href).toBe(`${origin}/admin/orders`);
});

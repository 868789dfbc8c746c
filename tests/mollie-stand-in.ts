/**
 * A local stand-in for Mollie's API (no test reaches the internet), answering as Mollie's reference
 * documents it: "Create a delayed route" (POST /v2/payments/{paymentId}/routes → 201 with a route,
 * id crt_…; https://docs.mollie.com/reference/payment-create-route), "Get current profile"
 * (GET /v2/profiles/me; https://docs.mollie.com/reference/get-current-profile), errors as
 * application/hal+json {status, title, detail, field?, _links.documentation}
 * (https://docs.mollie.com/reference/handling-errors), 401 for a wrong key, 429 when rate limited,
 * (with Retry-After in seconds), and idempotency (https://docs.mollie.com/reference/api-idempotency): a request repeated with the
 * same Idempotency-Key gets the first answer again and changes nothing. It records every request.
 * Used by the Vitest files and by the Playwright spec (importable without the app: node only).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type RecordedMollieRequest = { method: string; path: string; headers: http.IncomingHttpHeaders; body: string };
export type StandInRoute = { id: string; paymentId: string; amount: { value: string; currency: string }; description: string; destination: { type: string; organizationId: string } };
/**
 * What the next POST of a route gets instead of a route: an error status (429 with Retry-After 1,
 * or the given Retry-After), or "drop" (the route is made, the answer is lost).
 */
export type MollieMisbehaviour = 429 | { status: 429; retryAfter: string } | 500 | 503 | "drop";

const HAL = "application/hal+json";

function errorBody(status: number, title: string, detail: string, field?: string) {
  return { status, title, detail, ...(field ? { field } : {}), _links: { documentation: { href: "https://docs.mollie.com/overview/handling-errors", type: "text/html" } } };
}

export async function startMollieStandIn(options: { apiKey: string; payments?: string[] }) {
  const requests: RecordedMollieRequest[] = [];
  const routes: StandInRoute[] = [];
  const payments = new Set(options.payments ?? []);
  const replies = new Map<string, { status: number; body: unknown }>();
  const misbehaviours: MollieMisbehaviour[] = [];
  let counter = 0;

  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const path = req.url ?? "/";
      requests.push({ method: req.method ?? "", path, headers: req.headers, body });
      const reply = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": HAL, ...headers });
        res.end(JSON.stringify(json));
      };
      if (req.headers.authorization !== `Bearer ${options.apiKey}`) {
        return reply(401, errorBody(401, "Unauthorized Request", "Missing authentication, or failed to authenticate"));
      }
      if (req.method === "GET" && path === "/v2/profiles/me") {
        return reply(200, { resource: "profile", id: "pfl_StandIn01", mode: options.apiKey.startsWith("test_") ? "test" : "live", name: "Stand-in pharmacy platform", status: "verified" });
      }
      const match = /^\/v2\/payments\/([^/]+)\/routes$/.exec(path);
      if (req.method !== "POST" || !match) return reply(404, errorBody(404, "Not Found", "The resource could not be found."));

      const key = req.headers["idempotency-key"];
      const previous = typeof key === "string" ? replies.get(key) : undefined;
      if (previous) return reply(previous.status, previous.body);
      const misbehaviour = misbehaviours.shift();
      if (misbehaviour === 429 || (typeof misbehaviour === "object" && misbehaviour.status === 429)) {
        const retryAfter = typeof misbehaviour === "object" ? misbehaviour.retryAfter : "1";
        return reply(429, errorBody(429, "Too Many Requests", "You have exceeded the rate limit. Please try again later."), { "retry-after": retryAfter });
      }
      if (misbehaviour === 500 || misbehaviour === 503) return reply(misbehaviour, errorBody(misbehaviour, "Internal Server Error", "Something went wrong on our side."));

      const paymentId = decodeURIComponent(match[1]);
      let answer: { status: number; body: unknown };
      let parsed: Partial<StandInRoute> = {};
      try {
        parsed = JSON.parse(body) as Partial<StandInRoute>;
      } catch {
        // judged below as missing fields
      }
      if (!payments.has(paymentId)) {
        answer = { status: 404, body: errorBody(404, "Not Found", `No payment exists with token ${paymentId}.`) };
      } else if (!parsed.amount || !/^\d+\.\d{2}$/.test(parsed.amount.value ?? "") || !parsed.amount.currency) {
        answer = { status: 422, body: errorBody(422, "Unprocessable Entity", "The amount is invalid.", "amount") };
      } else if (parsed.destination?.type !== "organization" || !/^org_/.test(parsed.destination.organizationId ?? "")) {
        answer = { status: 422, body: errorBody(422, "Unprocessable Entity", "The destination organization is invalid.", "destination.organizationId") };
      } else {
        const route: StandInRoute = {
          id: `crt_StandIn${String(++counter).padStart(4, "0")}`,
          paymentId,
          amount: parsed.amount,
          description: parsed.description ?? "",
          destination: { type: "organization", organizationId: parsed.destination.organizationId },
        };
        routes.push(route);
        answer = {
          status: 201,
          body: { resource: "route", mode: "test", ...route, createdAt: new Date().toISOString(), _links: { self: { href: `https://api.mollie.com/v2/payments/${paymentId}/routes/${route.id}`, type: HAL }, payment: { href: `https://api.mollie.com/v2/payments/${paymentId}`, type: HAL } } },
        };
      }
      if (typeof key === "string") replies.set(key, answer);
      if (misbehaviour === "drop") {
        res.socket?.destroy();
        return;
      }
      reply(answer.status, answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/`;
  return {
    endpoint,
    requests,
    routes,
    addPayment: (paymentId: string) => payments.add(paymentId),
    /** The next POSTs of a route misbehave in this order. */
    misbehave: (...next: MollieMisbehaviour[]) => misbehaviours.push(...next),
    routePosts: () => requests.filter((r) => r.method === "POST"),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type MollieStandIn = Awaited<ReturnType<typeof startMollieStandIn>>;

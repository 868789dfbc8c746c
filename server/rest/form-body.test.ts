import { z } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { PATIENT_DATA } from "./families";
import { createRestApi, route } from "./kit";
import { reply } from "./responses";

/** A route with a form body, on a family of its own: what the kit hands the handler. */
const api = createRestApi({ ...PATIENT_DATA, basePath: "/form-test" }, [
  route({
    method: "POST",
    path: "/echo",
    summary: "echo",
    body: z.object({ a: z.string() }).passthrough(),
    bodyFormat: "form",
    async handle({ body }) {
      return reply(200, { body, proto: Object.getPrototypeOf(body) === Object.prototype });
    },
  }),
]);

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
});

const send = async (body: BodyInit, headers: Record<string, string> = {}) => {
  const response = await api.handle(
    new Request("http://localhost/form-test/echo", { method: "POST", headers: { "x-api-key": t.keys.public, ...headers }, body, duplex: "half" } as RequestInit),
  );
  return { status: response.status, json: await response.json() };
};
const urlencoded = { "content-type": "application/x-www-form-urlencoded; charset=utf-8" };

describe("form bodies (bodyFormat: form)", () => {
  it("hands the handler the text fields, the first value of a repeated name; no name reaches the prototype", async () => {
    const answer = await send("a=1&a=2&b=%C3%A9&__proto__=x&constructor=y", urlencoded);
    // "__proto__" is an own field of the parsed form, which the schema then leaves out.
    expect(answer).toEqual({ status: 200, json: { body: { a: "1", b: "é", constructor: "y" }, proto: true } });
    const multipart = new FormData();
    multipart.append("a", "ä");
    multipart.append("a", "second");
    expect(await send(multipart)).toEqual({ status: 200, json: { body: { a: "ä" }, proto: true } });
  });

  it("applies the edge check to names and values (NUL: 400 on the field), and the schema", async () => {
    expect(await send("a=x%00y", urlencoded)).toMatchObject({ status: 400, json: { error: { a: [expect.any(String)] } } });
    expect(await send("a=1&b%00=2", urlencoded)).toMatchObject({ status: 400, json: { error: { non_field_errors: [expect.any(String)] } } });
    expect(await send("b=1", urlencoded)).toMatchObject({ status: 400, json: { error: { a: [expect.any(String)] } } });
  });

  it("stops reading a streamed form body as soon as it passes 32 MiB (413)", async () => {
    let sent = 0;
    const chunk = new TextEncoder().encode(`a=${"x".repeat(1024 * 1024)}`);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 40) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    expect((await send(stream, urlencoded)).status).toBe(413);
    expect(sent).toBeLessThanOrEqual(34);
  });
});

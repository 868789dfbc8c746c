import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { makeQueryClient } from "./query-client";

/**
 * A list still loading its first data when a write invalidates it: its first request read before
 * the write (it answers "before"), the request after the write answers "after".
 */
async function listAfterWrite(client: QueryClient): Promise<{ shown: unknown; requests: number }> {
  let requests = 0;
  let answerFirst!: () => void;
  const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
  const observer = new QueryObserver(client, {
    queryKey: ["secrets", "list"],
    queryFn: async () => {
      requests += 1;
      if (requests === 1) {
        await firstAnswered;
        return "before";
      }
      return "after";
    },
    retry: false,
  });
  const unsubscribe = observer.subscribe(() => {});
  try {
    await Promise.resolve(); // the first request is in flight
    const invalidated = client.invalidateQueries({ queryKey: ["secrets"] });
    answerFirst();
    await invalidated;
    await client.getQueryCache().find({ queryKey: ["secrets", "list"] })?.promise?.catch(() => {});
    return { shown: observer.getCurrentResult().data, requests };
  } finally {
    unsubscribe();
    client.clear();
  }
}

describe("the portals' query client", () => {
  it("reads a list again after a write that happened while the list was loading its first data", async () => {
    expect(await listAfterWrite(makeQueryClient())).toEqual({ shown: "after", requests: 2 });
  });

  it("(react-query's own client keeps the first request there, which read before the write)", async () => {
    expect(await listAfterWrite(new QueryClient())).toEqual({ shown: "before", requests: 1 });
  });
});

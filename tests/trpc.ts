import { TRPCError } from "@trpc/server";
import { expect } from "vitest";

/** The tRPC error code a call fails with (the test fails if it succeeds). */
export async function trpcCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TRPCError);
    return (error as TRPCError).code;
  }
  throw new Error("expected the call to fail");
}

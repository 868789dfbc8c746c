"use server";

import { redirect } from "next/navigation";
import { completeCheckoutByToken } from "@/server/domain/checkouts/complete-checkout";
import { DomainError, NotFoundError, ValidationError } from "@/server/domain/errors";

export type ConfirmState = { error: string | null };

/**
 * The page's confirm button: the checkout is completed (the order made through order intake, once
 * even when confirmed twice) and the page shows it again, now completed. A refusal is shown on the page.
 */
export async function confirmCheckout(token: string, _previous: ConfirmState): Promise<ConfirmState> {
  try {
    await completeCheckoutByToken(token);
  } catch (error) {
    if (error instanceof NotFoundError) return { error: "This checkout does not exist." };
    // Intake's field errors name its own body: the shop's catalogue changed since the checkout was made.
    if (error instanceof ValidationError) return { error: "The order could not be placed: the shop's catalogue has changed. Ask the shop for a new checkout." };
    if (error instanceof DomainError) return { error: `The order could not be placed: ${error.message}` };
    throw error;
  }
  redirect(`/checkout/${token}`);
}

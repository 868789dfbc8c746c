import { errorText } from "@/i18n/error-text";
import { ConflictError } from "@/server/domain/errors";
import { pharmacyOrderStatusText } from "./status-text";

/**
 * What the caller's page showed of a pharmacy order when the pharmacist chose an action. A command
 * that takes it compares it, under the order's row lock, with the order as it is now: when another
 * change came first, the command refuses (ConflictError "order_changed") instead of overwriting
 * that change unseen. Absent fields are not compared (the REST API sends none).
 */
export type ExpectedOrderState = { status?: string; priority?: number; deliveryType?: string };

/**
 * The one check: every field of `expected` against `current` (read under the lock). The error's
 * details carry the current values, for the page to show with its message.
 */
export function assertOrderAsExpected(
  current: { status?: string; priority?: number; deliveryType?: string },
  expected: ExpectedOrderState | undefined,
): void {
  if (!expected) return;
  const changed = (["status", "priority", "deliveryType"] as const).filter(
    (field) => expected[field] !== undefined && current[field] !== undefined && expected[field] !== current[field],
  );
  if (changed.length === 0) return;
  const changes = changed.map((field) =>
    field === "status"
      ? errorText("pharmacyOrders.changed.status", { status: pharmacyOrderStatusText(String(current.status)) })
      : errorText(`pharmacyOrders.changed.${field}`, { value: String(current[field]) }),
  );
  throw new ConflictError(errorText("pharmacyOrders.changedMeanwhile", { changes }), {
    code: "order_changed",
    details: Object.fromEntries(changed.map((field) => [field, current[field]])),
  });
}

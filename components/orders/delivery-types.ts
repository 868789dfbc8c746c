export const DELIVERY_TYPE_LABELS: Record<string, string> = { shipping: "Shipping", pickup: "Pharmacy pickup" };

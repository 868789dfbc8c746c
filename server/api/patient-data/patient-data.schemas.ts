import { z } from "zod";
import { text } from "@/server/wire/schemas";

/** The shop customer every patient-data request names (spec: both required). */
const customerQuery = { shop_customer_id: text(), shop_identifier: text() };

export const intentQuery = z.object({ ...customerQuery, intent: text() });
export const propertyQuery = z.object({ ...customerQuery, field: text(100) });
export const customerOnlyQuery = z.object(customerQuery);

/** The form of POST properties: the field's key and its value as text (checked against the field's type by the domain). */
export const propertyForm = z.object({ field: text(100), value: z.string() });

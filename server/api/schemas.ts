import { z } from "zod";

/** Body and query building blocks shared by the families' route tables. */
export const uid = () => z.string().trim().min(1).max(100);
export const text = (max = 255) => z.string().trim().min(1).max(max);
/** Money and prices: integer minor units, never decimals. */
export const amount = () => z.number().int().min(0).max(2_147_483_647);
export const count = () => z.number().int().min(0).max(2_147_483_647);
export const httpUrl = () =>
  z
    .string()
    .trim()
    .max(2048)
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), "Enter a valid http(s) URL.");
/** Search terms: at most 100 characters. */
export const searchTerm = () => z.string().max(100).optional();

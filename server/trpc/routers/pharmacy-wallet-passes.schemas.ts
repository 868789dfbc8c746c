/** Input of the pharmacy portal's wallet pass check (its form uses the same schema). */
import { z } from "zod";
import { barcodeValue } from "@/server/wire/schemas";

export const verifyWalletPassInput = z.object({ barcodeValue: barcodeValue() });

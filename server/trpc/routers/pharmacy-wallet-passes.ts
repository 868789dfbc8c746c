/**
 * The pharmacy portal's counter check of a wallet pass: the Management API's verify (the same rule,
 * verify-pass.ts) answering only valid and status. Any pass of the pharmacist's organisation (the
 * patient may present it at any of its pharmacies); another organisation's or an unknown value is
 * NOT_FOUND, as the REST verify's 404. A mutation, so the scanned value travels in the request body,
 * never in a URL (the spec's rule for verify).
 */
import { verifyWalletPass } from "@/server/domain/wallet-passes/verify-pass";
import { pharmacyProcedure, router } from "@/server/trpc/init";
import { verifyWalletPassInput } from "./pharmacy-wallet-passes.schemas";

export const pharmacyWalletPassesRouter = router({
  verify: pharmacyProcedure.input(verifyWalletPassInput).mutation(async ({ ctx, input }) => {
    const { valid, status } = await verifyWalletPass(ctx.scope.organisationId, input.barcodeValue);
    return { valid, status };
  }),
});

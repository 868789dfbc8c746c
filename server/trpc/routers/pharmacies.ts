import { pharmacyProcedure, router } from "@/server/trpc/init";

/** The pharmacies the signed-in pharmacist works for (a group pharmacist's pharmacy picker). */
export const pharmaciesRouter = router({
  list: pharmacyProcedure.query(({ ctx }) =>
    ctx.scope.pharmacies.map((p) => ({ uid: p.id, displayName: p.displayName })),
  ),
});

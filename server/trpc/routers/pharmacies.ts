import { pharmaciesInReach } from "@/server/domain/pharmacies/pharmacy-scope";
import { pharmacistProcedure, router } from "@/server/trpc/init";

/** The pharmacies the signed-in pharmacist works for (a group pharmacist's pharmacy picker). */
export const pharmaciesRouter = router({
  list: pharmacistProcedure.query(async ({ ctx }) =>
    (await pharmaciesInReach(ctx.user)).map((p) => ({ uid: p.id, displayName: p.displayName })),
  ),
});

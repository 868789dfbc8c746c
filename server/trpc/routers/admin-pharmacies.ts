/** The admin tool's pharmacies (address, group, location id, system connector and its test) and pharmacy groups. */
import {
  changePharmacy,
  createPharmacy,
  getAdminPharmacy,
  listAdminPharmacies,
  testPharmacyConnection,
  type AdminPharmacy,
  type PharmacyFields,
} from "@/server/domain/pharmacies/admin-pharmacies";
import { createPharmacyGroup, listPharmacyGroups, renamePharmacyGroup } from "@/server/domain/pharmacies/pharmacy-groups";
import { adminProcedure, router } from "@/server/trpc/init";
import { unix } from "@/server/wire/format";
import type { z } from "zod";
import {
  changePharmacyInput,
  createGroupInput,
  pharmacyFieldsInput,
  pharmacyUidInput,
  renameGroupInput,
} from "./admin-pharmacies.schemas";

const presentPharmacy = (p: AdminPharmacy) => ({
  uid: p.id,
  displayName: p.displayName,
  email: p.email,
  address: p.address,
  locationId: p.locationId,
  group: p.group ? { uid: p.group.id, name: p.group.displayName } : null,
  connector: p.connector,
  userCount: p.userCount,
  createdAt: unix(p.createdAt),
  updatedAt: unix(p.updatedAt),
});

const fieldsOf = (input: z.output<typeof pharmacyFieldsInput>): PharmacyFields => ({
  displayName: input.displayName,
  email: input.email,
  address: input.address,
  groupId: input.groupUid,
  locationId: input.locationId,
  systemConnector: input.systemConnector,
});

export const adminPharmaciesRouter = router({
  list: adminProcedure.query(async ({ ctx }) => (await listAdminPharmacies(ctx.scope.organisationId)).map(presentPharmacy)),
  get: adminProcedure.input(pharmacyUidInput).query(async ({ ctx, input }) => presentPharmacy(await getAdminPharmacy(ctx.scope.organisationId, input.pharmacyUid))),
  create: adminProcedure
    .input(pharmacyFieldsInput)
    .mutation(async ({ ctx, input }) => presentPharmacy(await createPharmacy(ctx.scope.organisationId, ctx.user.id, fieldsOf(input)))),
  change: adminProcedure
    .input(changePharmacyInput)
    .mutation(async ({ ctx, input }) => presentPharmacy(await changePharmacy(ctx.scope.organisationId, ctx.user.id, input.pharmacyUid, fieldsOf(input)))),
  /** Asks the pharmacy system now (short timeout); { ok, message } either way. */
  testConnection: adminProcedure.input(pharmacyUidInput).mutation(async ({ ctx, input }) => testPharmacyConnection(ctx.scope.organisationId, input.pharmacyUid)),
});

export const adminPharmacyGroupsRouter = router({
  list: adminProcedure.query(async ({ ctx }) =>
    (await listPharmacyGroups(ctx.scope.organisationId)).map((g) => ({
      uid: g.id,
      displayName: g.displayName,
      createdAt: unix(g.createdAt),
      pharmacies: g.pharmacies.map((p) => ({ uid: p.id, name: p.displayName })),
    })),
  ),
  create: adminProcedure.input(createGroupInput).mutation(async ({ ctx, input }) => {
    const group = await createPharmacyGroup(ctx.scope.organisationId, ctx.user.id, input.displayName);
    return { uid: group.id, displayName: group.displayName };
  }),
  rename: adminProcedure.input(renameGroupInput).mutation(async ({ ctx, input }) => {
    const group = await renamePharmacyGroup(ctx.scope.organisationId, ctx.user.id, input.groupUid, input.displayName);
    return { uid: group.id, displayName: group.displayName };
  }),
});

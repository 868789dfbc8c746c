/**
 * Admin tool, Settings → Audit log: every state change of the organisation (server/domain/audit/queries.ts),
 * newest first, filtered and cursor-paginated, with who made it; and who can be filtered by.
 */
import { listAuditActors, listAuditLog, type AuditActor, type AuditLogEntry } from "@/server/domain/audit/queries";
import { adminProcedure, router } from "@/server/trpc/init";
import { unix } from "@/server/wire/format";
import { fromUnixSeconds, toUnixSecondsInclusive } from "@/server/wire/schemas";
import { listAuditLogInput } from "./admin-audit.schemas";

const presentActor = (actor: AuditActor) => (actor.type === "SYSTEM" ? { type: actor.type } : { type: actor.type, uid: actor.id, name: actor.name });

const presentEntry = (entry: AuditLogEntry) => ({
  uid: entry.id,
  source: entry.source,
  at: unix(entry.at),
  kind: entry.kind,
  entityUid: entry.entityId,
  orderUid: entry.orderId,
  action: entry.action,
  summary: entry.summary,
  words: entry.words,
  actor: presentActor(entry.actor),
});

export const adminAuditRouter = router({
  list: adminProcedure.input(listAuditLogInput).query(async ({ ctx, input }) => {
    const { entries, nextCursor } = await listAuditLog({
      organisationId: ctx.scope.organisationId,
      kinds: input.kinds,
      actor: input.actor ? (input.actor.type === "SYSTEM" ? { type: "SYSTEM" } : { type: input.actor.type, id: input.actor.uid }) : undefined,
      from: fromUnixSeconds(input.from),
      to: toUnixSecondsInclusive(input.to),
      entityId: input.entityUid,
      text: input.text,
      cursor: input.cursor,
      limit: input.limit,
    });
    return { entries: entries.map(presentEntry), nextCursor };
  }),

  actors: adminProcedure.query(async ({ ctx }) =>
    (await listAuditActors(ctx.scope.organisationId)).map((a) =>
      a.type === "USER"
        ? { type: a.type, uid: a.id, name: a.name, role: a.role, family: null, revoked: false }
        : { type: a.type, uid: a.id, name: a.name, role: null, family: a.family, revoked: a.revoked },
    ),
  ),
});

import type { Db, Prisma } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { pageArgs, type Page } from "@/server/domain/paging";
import { containsInsensitive } from "@/server/domain/search";

const orderGraph = {
  shopOrder: { include: { shop: { select: { id: true, identifier: true } } } },
  items: { orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }], include: { sku: { select: { displayName: true, pzn: true } } } },
  fulfillments: {
    orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }],
    include: { items: { orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }] }, pharmacyOrder: { select: { status: true } } },
  },
  prescriptions: {
    where: { deletedAt: null },
    orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }],
    include: { doctor: { select: { id: true, displayName: true } } },
  },
} satisfies Prisma.OrderInclude;

export type OrderFilter = {
  createdFrom?: Date;
  createdTo?: Date;
  updatedFrom?: Date;
  updatedTo?: Date;
  shopIdentifier?: string;
  shopOrderExternalId?: string;
  search?: string;
};

/**
 * `search`: substring of the shop order name, a pharmacy order name or the patient's name, or the
 * exact uid of the order, one of its prescriptions or one of its pharmacy orders ("#" stripped).
 */
function orderWhere(organisationId: string, filter: OrderFilter): Prisma.OrderWhereInput {
  const and: Prisma.OrderWhereInput[] = [{ organisationId }];
  if (filter.createdFrom || filter.createdTo) and.push({ createdAt: { gte: filter.createdFrom, lte: filter.createdTo } });
  if (filter.updatedFrom || filter.updatedTo) and.push({ updatedAt: { gte: filter.updatedFrom, lte: filter.updatedTo } });
  if (filter.shopIdentifier) and.push({ shopOrder: { shop: { identifier: filter.shopIdentifier, organisationId } } });
  if (filter.shopOrderExternalId) and.push({ shopOrder: { externalId: filter.shopOrderExternalId } });
  const term = filter.search?.trim();
  if (term) {
    const uid = term.replace(/^#/, "");
    and.push({
      OR: [
        { shopOrder: { name: containsInsensitive(term) } },
        { pharmacyOrders: { some: { name: containsInsensitive(term) } } },
        { patient: { displayName: containsInsensitive(term) } },
        { id: uid },
        { prescriptions: { some: { id: uid } } },
        { pharmacyOrders: { some: { id: uid } } },
      ],
    });
  }
  return { AND: and };
}

export async function listOrders(db: Db, organisationId: string, filter: OrderFilter, page: Page) {
  const where = orderWhere(organisationId, filter);
  const [items, total] = await Promise.all([
    db.order.findMany({ where, include: orderGraph, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...pageArgs(page) }),
    db.order.count({ where }),
  ]);
  return { items, total };
}

export async function getOrder(db: Db, organisationId: string, orderId: string) {
  const order = await db.order.findFirst({ where: { id: orderId, organisationId }, include: orderGraph });
  if (!order) throw new NotFoundError();
  return order;
}

export async function getOrderByExternalId(db: Db, organisationId: string, externalId: string) {
  const order = await db.order.findUnique({
    where: { organisationId_externalId: { organisationId, externalId } },
    include: orderGraph,
  });
  if (!order) throw new NotFoundError();
  return order;
}

export type OrderWithGraph = Awaited<ReturnType<typeof getOrder>>;

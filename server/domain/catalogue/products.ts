import { database, type Prisma } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { pageArgs, type Page } from "@/server/domain/paging";

const live = { deletedAt: null } as const;

/** A product with everything connected to it: live SKUs with their shop and pharmacy SKUs, and shop products. */
const creationOrder = [{ createdAt: "asc" as const }, { id: "asc" as const }];
const productGraph = {
  skus: {
    where: { deletedAt: null },
    orderBy: creationOrder,
    include: {
      shopSkus: { where: { deletedAt: null }, orderBy: creationOrder },
      pharmacySkus: { where: { deletedAt: null }, orderBy: creationOrder },
    },
  },
  shopProducts: { orderBy: creationOrder },
} satisfies Prisma.ProductInclude;

export async function listProducts(organisationId: string, page: Page) {
  const db = await database();
  const where = { organisationId, ...live };
  const [items, total] = await Promise.all([
    db.product.findMany({
      where,
      include: productGraph,
      orderBy: creationOrder,
      ...pageArgs(page),
    }),
    db.product.count({ where }),
  ]);
  return { items, total };
}

export async function getProduct(organisationId: string, productId: string) {
  const db = await database();
  const product = await db.product.findFirst({ where: { id: productId, organisationId, ...live }, include: productGraph });
  if (!product) throw new NotFoundError();
  return product;
}

export type ProductWithGraph = Awaited<ReturnType<typeof getProduct>>;

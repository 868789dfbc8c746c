/**
 * The admin tool, Catalogue: products (with their shop listings), SKUs and shop SKUs through the
 * same domain functions as the Management API's catalogue, and the pharmacy picker of the
 * stock pages. Always the admin's organisation; every change is the admin's.
 */
import type { Actor } from "@/server/domain/actor";
import { listOrganisationPharmacies } from "@/server/domain/catalogue/pharmacy-skus";
import { createProduct, createShopProduct, deleteProduct, getProduct, listProducts, updateProduct } from "@/server/domain/catalogue/products";
import { createShopSku, deleteShopSku, listShops, listShopSkusWithNames, updateShopSku } from "@/server/domain/catalogue/shop-skus";
import { createSku, deleteSku, listSkus, updateSku } from "@/server/domain/catalogue/skus";
import { findCatalogueDuplicates } from "@/server/domain/catalogue/duplicates";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { adminProcedure, router } from "@/server/trpc/init";
import {
  presentProductDetail,
  presentProductEntry,
  presentShopProduct,
  presentShopSku,
  presentShopSkuEntry,
  presentSku,
} from "./admin-catalogue.presenters";
import {
  addShopProductInput,
  byUidInput,
  createProductInput,
  createShopSkuInput,
  createSkuInput,
  duplicatesInput,
  listProductsInput,
  listShopSkusInput,
  listSkusInput,
  updateProductInput,
  updateShopSkuInput,
  updateSkuInput,
} from "./admin-catalogue.schemas";

const adminActor = (user: PortalSessionUser): Actor => ({ type: "USER", userId: user.id });
const pageOf = (input: { page: number; limit: number }) => ({ page: input.page, limit: input.limit });
const framed = <T>(items: T[], total: number, input: { page: number; limit: number }) => ({
  items,
  total,
  page: input.page,
  limit: input.limit,
  totalPages: Math.ceil(total / input.limit),
});

const products = router({
  list: adminProcedure.input(listProductsInput).query(async ({ ctx, input }) => {
    const { items, total } = await listProducts(ctx.scope.organisationId, pageOf(input), { search: input.search });
    return framed(items.map(presentProductEntry), total, input);
  }),
  get: adminProcedure.input(byUidInput).query(async ({ ctx, input }) => presentProductDetail(await getProduct(ctx.scope.organisationId, input.uid))),
  create: adminProcedure.input(createProductInput).mutation(async ({ ctx, input }) =>
    presentProductEntry({ ...(await createProduct(ctx.scope.organisationId, { ...input, handle: input.handle ?? null }, adminActor(ctx.user))), skus: [], shopProducts: [] }),
  ),
  update: adminProcedure.input(updateProductInput).mutation(async ({ ctx, input }) => {
    const { uid, ...changes } = input;
    await updateProduct(ctx.scope.organisationId, uid, changes, adminActor(ctx.user));
    return presentProductDetail(await getProduct(ctx.scope.organisationId, uid));
  }),
  delete: adminProcedure.input(byUidInput).mutation(async ({ ctx, input }) => {
    await deleteProduct(ctx.scope.organisationId, input.uid, adminActor(ctx.user));
    return { deleted: true };
  }),
  /** Lists the product in a shop under the shop's id of it (what the shop's SKUs hang from). */
  addShopProduct: adminProcedure.input(addShopProductInput).mutation(async ({ ctx, input }) =>
    presentShopProduct(
      await createShopProduct(ctx.scope.organisationId, input.productUid, { shopId: input.shopUid, externalId: input.externalId }, adminActor(ctx.user)),
    ),
  ),
});

const skus = router({
  list: adminProcedure.input(listSkusInput).query(async ({ ctx, input }) => {
    const { items, total } = await listSkus(ctx.scope.organisationId, input.search, pageOf(input));
    return framed(items.map(presentSku), total, input);
  }),
  create: adminProcedure.input(createSkuInput).mutation(async ({ ctx, input }) => {
    const { productUid, ...fields } = input;
    return presentSku(await createSku(ctx.scope.organisationId, productUid, fields, adminActor(ctx.user)));
  }),
  update: adminProcedure.input(updateSkuInput).mutation(async ({ ctx, input }) => {
    const { uid, ...changes } = input;
    return presentSku(await updateSku(ctx.scope.organisationId, uid, changes, adminActor(ctx.user)));
  }),
  delete: adminProcedure.input(byUidInput).mutation(async ({ ctx, input }) => {
    await deleteSku(ctx.scope.organisationId, input.uid, adminActor(ctx.user));
    return { deleted: true };
  }),
});

const shopSkus = router({
  list: adminProcedure.input(listShopSkusInput).query(async ({ ctx, input }) => {
    const { items, total } = await listShopSkusWithNames(ctx.scope.organisationId, { shopId: input.shopUid, search: input.search }, pageOf(input));
    return framed(items.map(presentShopSkuEntry), total, input);
  }),
  create: adminProcedure.input(createShopSkuInput).mutation(async ({ ctx, input }) => {
    const { shopUid, shopProductUid, skuUid, ...fields } = input;
    const row = await createShopSku(ctx.scope.organisationId, { ...fields, shopId: shopUid, shopProductId: shopProductUid, skuId: skuUid }, adminActor(ctx.user));
    return presentShopSku(row);
  }),
  update: adminProcedure.input(updateShopSkuInput).mutation(async ({ ctx, input }) => {
    const { uid, skuUid, ...fields } = input;
    return presentShopSku(await updateShopSku(ctx.scope.organisationId, uid, { ...fields, skuId: skuUid }, adminActor(ctx.user)));
  }),
  delete: adminProcedure.input(byUidInput).mutation(async ({ ctx, input }) => {
    await deleteShopSku(ctx.scope.organisationId, input.uid, adminActor(ctx.user));
    return { deleted: true };
  }),
});

export const adminCatalogueRouter = router({
  /** The organisation's shops, for the shop pickers. */
  shops: adminProcedure.query(async ({ ctx }) =>
    (await listShops(ctx.scope.organisationId)).map((s) => ({ uid: s.id, displayName: s.displayName, identifier: s.identifier })),
  ),
  /** The organisation's pharmacies with how many SKUs run out, for the stock pages' pharmacy picker (their stock: admin.pharmacyStock, stock.ts). */
  pharmacies: adminProcedure.query(async ({ ctx }) =>
    (await listOrganisationPharmacies(ctx.scope.organisationId)).map((p) => ({ uid: p.id, displayName: p.displayName, runningOut: p.runningOut })),
  ),
  /** Other products with this handle, other SKUs with this PZN: the forms' warning (neither is unique in the spec). */
  duplicates: adminProcedure.input(duplicatesInput).query(async ({ ctx, input }) => {
    const found = await findCatalogueDuplicates(ctx.scope.organisationId, {
      handle: input.handle,
      pzn: input.pzn,
      exceptProductId: input.exceptProductUid,
      exceptSkuId: input.exceptSkuUid,
    });
    return {
      products: found.products.map((p) => ({ uid: p.id, displayName: p.displayName })),
      skus: found.skus.map((s) => ({ uid: s.id, displayName: s.displayName, productUid: s.productId })),
    };
  }),
  products,
  skus,
  shopSkus,
});

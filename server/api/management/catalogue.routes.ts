import { z } from "zod";
import { amount, count, httpUrl, int4, searchTerm, text, uid } from "@/server/wire/schemas";
import { getProduct, listProducts } from "@/server/domain/catalogue/products";
import { createShopSku, deleteShopSku, getShopSku, listShopSkus, updateShopSku } from "@/server/domain/catalogue/shop-skus";
import { createSku, deleteSku, getSku, listSkus, updateSku, type SkuFields } from "@/server/domain/catalogue/skus";
import { route } from "@/server/rest/kit";
import { managementExamples as examples } from "./examples";
import { reply } from "@/server/rest/responses";
import { conflictErrorSchema } from "@/server/rest/error-schemas";
import { paginated, paginatedSchema } from "@/server/wire/format";
import {
  presentProduct,
  presentShopSku,
  presentSku,
  presentSkuListEntry,
  productSchema,
  shopSkuSchema,
  skuListEntrySchema,
  skuSchema,
} from "./catalogue.presenters";

const optionalSkuFields = {
  pzn: z.string().trim().max(64).nullable().optional(),
  dosage: z.string().max(255).nullable().optional(),
  unit: z.string().max(32).nullable().optional(),
  pcs: count().nullable().optional(),
  weight: z.number().min(0).nullable().optional(),
  therapy_duration: count().nullable().optional(),
  standard_selling_unit: z.number().positive().nullable().optional(),
  prescription_name: z.string().max(255).nullable().optional(),
};

const createSkuBody = z.object({
  product_uid: uid(),
  display_name: text(),
  digital: z.boolean().optional(),
  skip_for_pharmacy_orders: z.boolean().optional(),
  ...optionalSkuFields,
});

// display_name, digital and skip_for_pharmacy_orders cannot be set to null.
const updateSkuBody = z.object({
  product_uid: uid().optional(),
  display_name: text().optional(),
  digital: z.boolean().optional(),
  skip_for_pharmacy_orders: z.boolean().optional(),
  ...optionalSkuFields,
});

function skuFields(body: z.output<typeof updateSkuBody>): Partial<SkuFields> {
  return {
    displayName: body.display_name,
    pzn: body.pzn,
    digital: body.digital,
    dosage: body.dosage,
    unit: body.unit,
    pcs: body.pcs,
    weight: body.weight,
    therapyDuration: body.therapy_duration,
    standardSellingUnit: body.standard_selling_unit,
    prescriptionName: body.prescription_name,
    skipForPharmacyOrders: body.skip_for_pharmacy_orders,
  };
}

const shopSkuFields = {
  sku_uid: uid().nullable().optional(),
  shop_sku: z.string().trim().max(255).nullable().optional(),
  shop_variation_id: z.string().trim().min(1).max(255).nullable().optional(),
  image_url: httpUrl().nullable().optional(),
  last_synced_stock: int4().nullable().optional(),
};

const createShopSkuBody = z.object({ shop_uid: uid(), shop_product_uid: uid(), price: amount(), ...shopSkuFields });
const updateShopSkuBody = z.object({ price: amount().optional(), ...shopSkuFields });

function shopSkuFieldsOf(body: z.output<typeof updateShopSkuBody>) {
  return {
    skuId: body.sku_uid,
    shopSku: body.shop_sku,
    shopVariationId: body.shop_variation_id,
    price: body.price,
    imageUrl: body.image_url,
    lastSyncedStock: body.last_synced_stock,
  };
}

export const catalogueRoutes = [
  route({
    method: "GET",
    path: "/products",
    responses: { 200: paginatedSchema(productSchema, "products") },
    summary: "List products with their SKUs, shop SKUs, shop products and pharmacy SKUs",
    permission: "product:read",
    paginated: {},
    async handle({ principal, page }) {
      const { items, total } = await listProducts(principal.organisationId, page);
      return reply(200, paginated(items.map(presentProduct), total, page, "products"));
    },
  }),
  route({
    method: "GET",
    path: "/products/:product_uid",
    responses: { 200: productSchema },
    summary: "One product with all connected SKUs, shop SKUs, shop products and pharmacy SKUs",
    permission: "product:read",
    async handle({ principal, params }) {
      return reply(200, presentProduct(await getProduct(principal.organisationId, params.product_uid)));
    },
  }),
  route({
    method: "GET",
    path: "/skus",
    examples: { responses: { 200: examples.skus } },
    responses: { 200: paginatedSchema(skuListEntrySchema) },
    summary: "List SKUs; search is a case-insensitive prefix match on SKU name, PZN or product name",
    permission: "product:read",
    paginated: {},
    query: z.object({ search: searchTerm() }),
    async handle({ principal, page, query }) {
      const { items, total } = await listSkus(principal.organisationId, query.search, page);
      return reply(200, paginated(items.map(presentSkuListEntry), total, page));
    },
  }),
  route({
    method: "POST",
    path: "/skus",
    examples: {
      body: { product_uid: "3f1c2a9e-8d4b-4c1a-9f0e-2b7d6c5a4e31", display_name: "Ibuprofen 400 mg, 20 tablets", pzn: "01234567", unit: "tablets", pcs: 20 },
      responses: { 201: examples.sku },
    },
    responses: { 201: skuSchema },
    summary: "Create a SKU of a product",
    permission: "product:write",
    body: createSkuBody,
    async handle({ principal, actor, body }) {
      const fields = skuFields(body);
      const sku = await createSku(principal.organisationId, body.product_uid, { ...fields, displayName: body.display_name }, actor);
      return reply(201, presentSku(sku));
    },
  }),
  route({
    method: "GET",
    path: "/skus/:sku_uid",
    examples: { responses: { 200: examples.sku } },
    responses: { 200: skuSchema },
    summary: "One SKU",
    permission: "product:read",
    async handle({ principal, params }) {
      return reply(200, presentSku(await getSku(principal.organisationId, params.sku_uid)));
    },
  }),
  route({
    method: "PATCH",
    path: "/skus/:sku_uid",
    examples: { body: { display_name: "Ibuprofen 400 mg, 50 tablets", pcs: 50 }, responses: { 200: examples.sku } },
    responses: { 200: skuSchema },
    summary: "Update SKU fields (display_name, digital and skip_for_pharmacy_orders cannot be null)",
    permission: "product:write",
    body: updateSkuBody,
    async handle({ principal, actor, params, body }) {
      const sku = await updateSku(
        principal.organisationId,
        params.sku_uid,
        { ...skuFields(body), productId: body.product_uid },
        actor,
      );
      return reply(200, presentSku(sku));
    },
  }),
  route({
    method: "DELETE",
    path: "/skus/:sku_uid",
    responses: { 204: null },
    summary: "Soft-delete a SKU",
    permission: "product:write",
    async handle({ principal, actor, params }) {
      await deleteSku(principal.organisationId, params.sku_uid, actor);
      return reply(204);
    },
  }),
  route({
    method: "GET",
    path: "/shop-skus",
    examples: { responses: { 200: examples.shopSkus } },
    responses: { 200: paginatedSchema(shopSkuSchema) },
    summary: "List shop SKUs; search is a prefix match on shop variation id or shop SKU",
    permission: "product:read",
    paginated: {},
    query: z.object({ shop_uid: uid().optional(), search: searchTerm() }),
    async handle({ principal, page, query }) {
      const { items, total } = await listShopSkus(
        principal.organisationId,
        { shopId: query.shop_uid, search: query.search },
        page,
      );
      return reply(200, paginated(items.map(presentShopSku), total, page));
    },
  }),
  route({
    method: "POST",
    path: "/shop-skus",
    examples: {
      body: { shop_uid: "5b2e4c1d-7a3f-4e8b-9c0d-1e2f3a4b5c6d", shop_product_uid: "8c7d6e5f-4a3b-4c2d-9e1f-0a1b2c3d4e5f", sku_uid: "3f1c2a9e-8d4b-4c1a-9f0e-2b7d6c5a4e31", shop_variation_id: "variant-1001", price: 399 },
      responses: { 201: examples.shopSku },
    },
    responses: { 201: shopSkuSchema, 409: conflictErrorSchema },
    summary: "Create a shop SKU (unique per shop by sku_uid and by shop_variation_id among live rows)",
    permission: "product:write",
    body: createShopSkuBody,
    async handle({ principal, actor, body }) {
      const shopSku = await createShopSku(
        principal.organisationId,
        { ...shopSkuFieldsOf(body), shopId: body.shop_uid, shopProductId: body.shop_product_uid, price: body.price },
        actor,
      );
      return reply(201, presentShopSku(shopSku));
    },
  }),
  route({
    method: "GET",
    path: "/shop-skus/:shop_sku_uid",
    examples: { responses: { 200: examples.shopSku } },
    responses: { 200: shopSkuSchema },
    summary: "One shop SKU",
    permission: "product:read",
    async handle({ principal, params }) {
      return reply(200, presentShopSku(await getShopSku(principal.organisationId, params.shop_sku_uid)));
    },
  }),
  route({
    method: "PATCH",
    path: "/shop-skus/:shop_sku_uid",
    examples: { body: { price: 449, last_synced_stock: 12 }, responses: { 200: examples.shopSku } },
    responses: { 200: shopSkuSchema, 409: conflictErrorSchema },
    summary: "Update a shop SKU",
    permission: "product:write",
    body: updateShopSkuBody,
    async handle({ principal, actor, params, body }) {
      const shopSku = await updateShopSku(principal.organisationId, params.shop_sku_uid, shopSkuFieldsOf(body), actor);
      return reply(200, presentShopSku(shopSku));
    },
  }),
  route({
    method: "DELETE",
    path: "/shop-skus/:shop_sku_uid",
    responses: { 204: null },
    summary: "Delete a shop SKU (soft delete)",
    permission: "product:write",
    async handle({ principal, actor, params }) {
      await deleteShopSku(principal.organisationId, params.shop_sku_uid, actor);
      return reply(204);
    },
  }),
];

"use client";

import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { parseAmount, useFormat } from "@/components/ui/format";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button, SelectField, TextField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import type { AppRouter } from "@/server/trpc/router";
import { CheckboxField, Head, numberOrNull, Section } from "./shared";

type Product = inferRouterOutputs<AppRouter>["admin"]["catalogue"]["products"]["get"];
type Sku = Product["skus"][number];
type ShopSku = Sku["shopSkus"][number];
type Shop = inferRouterOutputs<AppRouter>["admin"]["catalogue"]["shops"][number];

/** The messages for a form field: the client's own check first, then the server's (under the input's own name). */
function useFieldErrors(error: unknown) {
  const [local, setLocal] = useState<Record<string, string[]>>({});
  const of = (field: string) => local[field] ?? fieldErrors(error, field);
  return { of, setLocal, hasServerFields: (e: unknown) => Boolean((e as { data?: { fieldErrors?: unknown } } | null)?.data?.fieldErrors) };
}

/** A product: its fields, its shop listings, and its SKUs each with their shop SKUs and pharmacy SKUs. */
export function ProductDetail({ uid }: { uid: string }) {
  const trpc = useTRPC();
  const product = useQuery(trpc.admin.catalogue.products.get.queryOptions({ uid }));
  const shops = useQuery(trpc.admin.catalogue.shops.queryOptions());
  const pharmacies = useQuery(trpc.admin.catalogue.pharmacies.queryOptions());
  if (product.isPending || shops.isPending) return <LoadingState label="Loading the product…" />;
  if (product.isError) {
    return product.error.data?.code === "NOT_FOUND" ? (
      <EmptyState title="Product not found">
        It does not exist, or it is not one of your organisation&apos;s. <Link href="/admin/catalogue" className="text-brand-700 hover:underline">All products</Link>
      </EmptyState>
    ) : (
      <ErrorState message={errorMessage(product.error)} onRetry={() => void product.refetch()} />
    );
  }
  if (shops.isError) return <ErrorState message={errorMessage(shops.error)} onRetry={() => void shops.refetch()} />;
  const p = product.data;
  const pharmacyName = (id: string) => pharmacies.data?.find((x) => x.uid === id)?.displayName ?? id.slice(0, 8);
  return (
    <div className="space-y-6">
      <Link href="/admin/catalogue" className="text-sm text-brand-700 hover:underline">
        ← All products
      </Link>
      <ProductForm product={p} />
      <ShopListings product={p} shops={shops.data} />
      <section aria-labelledby="skus-heading" className="space-y-4">
        <h2 id="skus-heading" className="text-lg font-semibold text-slate-900">
          SKUs of {p.displayName}
        </h2>
        {p.skus.length === 0 ? <EmptyState title="No SKUs yet">Create the first one below.</EmptyState> : null}
        {p.skus.map((sku) => (
          <SkuCard key={sku.uid} product={p} sku={sku} shops={shops.data} pharmacyName={pharmacyName} />
        ))}
        <NewSku product={p} />
      </section>
    </div>
  );
}

function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.admin.catalogue.pathKey() });
}

function ProductForm({ product }: { product: Product }) {
  const trpc = useTRPC();
  const router = useRouter();
  const refresh = useRefresh();
  const [displayName, setDisplayName] = useState(product.displayName);
  const [handle, setHandle] = useState(product.handle ?? "");
  const [prescriptionRequired, setPrescriptionRequired] = useState(product.prescriptionRequired);
  const update = useMutation(trpc.admin.catalogue.products.update.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(
    trpc.admin.catalogue.products.delete.mutationOptions({
      onSuccess: async () => {
        await refresh();
        router.push("/admin/catalogue");
      },
    }),
  );
  const errors = useFieldErrors(update.error);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!displayName.trim()) return errors.setLocal({ displayName: ["This field may not be blank."] });
    errors.setLocal({});
    update.mutate({ uid: product.uid, displayName, handle, prescriptionRequired });
  }
  return (
    <Section
      title={product.displayName}
      actions={
        <ConfirmButton
          title={`Delete the product ${product.displayName}?`}
          confirmLabel="Confirm delete"
          pendingLabel="Deleting…"
          onConfirm={() => remove.mutateAsync({ uid: product.uid })}
          consequence={<p>The product disappears from the catalogue and the APIs. A product that still has SKUs is refused: delete them first.</p>}
        >
          Delete product
        </ConfirmButton>
      }
    >
      <form onSubmit={submit} noValidate aria-label="Product" className="grid gap-4 sm:grid-cols-[1fr_1fr_auto_auto] sm:items-start">
        <TextField label="Display name" value={displayName} maxLength={255} onChange={(e) => setDisplayName(e.target.value)} errors={errors.of("displayName")} />
        <TextField label="Handle" value={handle} maxLength={255} onChange={(e) => setHandle(e.target.value)} errors={errors.of("handle")} />
        <CheckboxField label="Prescription required" checked={prescriptionRequired} onChange={setPrescriptionRequired} />
        <div className="pt-6">
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? "Saving…" : "Save product"}
          </Button>
        </div>
      </form>
      {update.isSuccess ? <p className="mt-2 text-sm text-emerald-700">Saved.</p> : null}
      {update.error && !errors.hasServerFields(update.error) ? (
        <div className="mt-3">
          <ErrorState message={errorMessage(update.error)} />
        </div>
      ) : null}
    </Section>
  );
}

function ShopListings({ product, shops }: { product: Product; shops: Shop[] }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [shopUid, setShopUid] = useState(shops[0]?.uid ?? "");
  const [externalId, setExternalId] = useState("");
  const add = useMutation(
    trpc.admin.catalogue.products.addShopProduct.mutationOptions({
      onSuccess: async () => {
        setExternalId("");
        await refresh();
      },
    }),
  );
  const errors = useFieldErrors(add.error);
  const shopName = (uid: string) => shops.find((s) => s.uid === uid)?.displayName ?? uid.slice(0, 8);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!externalId.trim()) return errors.setLocal({ externalId: ["This field may not be blank."] });
    errors.setLocal({});
    add.mutate({ productUid: product.uid, shopUid, externalId });
  }
  return (
    <Section title="Shop listings">
      <p className="mb-3 text-sm text-slate-600">A shop lists the product under its own product id; the shop&apos;s SKUs of the product hang from that listing.</p>
      {product.shopProducts.length > 0 ? (
        <table className="mb-4 min-w-full text-sm">
          <Head columns={["Shop", "Shop's product id"]} />
          <tbody>
            {product.shopProducts.map((sp) => (
              <tr key={sp.uid} className="border-t border-slate-100">
                <td className="px-3 py-2">{shopName(sp.shopUid)}</td>
                <td className="px-3 py-2 font-mono text-xs">{sp.externalId}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {shops.length === 0 ? (
        <EmptyState title="No shops yet">Add a shop under Shops first.</EmptyState>
      ) : (
        <form onSubmit={submit} noValidate aria-label="New shop listing" className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
          <SelectField label="Shop" value={shopUid} onChange={(e) => setShopUid(e.target.value)} errors={errors.of("shopUid")}>
            {shops.map((s) => (
              <option key={s.uid} value={s.uid}>
                {s.displayName}
              </option>
            ))}
          </SelectField>
          <TextField label="Shop's product id" value={externalId} maxLength={255} onChange={(e) => setExternalId(e.target.value)} errors={errors.of("externalId")} />
          <div className="pt-6">
            <Button type="submit" disabled={add.isPending}>
              List in shop
            </Button>
          </div>
        </form>
      )}
      {add.error && !errors.hasServerFields(add.error) ? (
        <div className="mt-3">
          <ErrorState message={errorMessage(add.error)} />
        </div>
      ) : null}
    </Section>
  );
}

type SkuDraft = Record<"displayName" | "pzn" | "dosage" | "unit" | "pcs" | "weight" | "therapyDuration" | "standardSellingUnit" | "prescriptionName", string> & {
  digital: boolean;
  skipForPharmacyOrders: boolean;
};

const draftOf = (sku?: Sku): SkuDraft => ({
  displayName: sku?.displayName ?? "",
  pzn: sku?.pzn ?? "",
  dosage: sku?.dosage ?? "",
  unit: sku?.unit ?? "",
  pcs: sku?.pcs?.toString() ?? "",
  weight: sku?.weight?.toString() ?? "",
  therapyDuration: sku?.therapyDuration?.toString() ?? "",
  standardSellingUnit: sku?.standardSellingUnit?.toString() ?? "",
  prescriptionName: sku?.prescriptionName ?? "",
  digital: sku?.digital ?? false,
  skipForPharmacyOrders: sku?.skipForPharmacyOrders ?? false,
});

const NUMERIC = ["pcs", "weight", "therapyDuration", "standardSellingUnit"] as const;

/** The SKU fields to send, or the client's messages for fields that are not numbers. */
function skuFieldsOf(draft: SkuDraft): { fields: Record<string, unknown> } | { errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  if (!draft.displayName.trim()) errors.displayName = ["This field may not be blank."];
  const numbers = Object.fromEntries(
    NUMERIC.map((field) => {
      const value = numberOrNull(draft[field]);
      if (Number.isNaN(value)) errors[field] = ["Enter a number."];
      return [field, value];
    }),
  );
  if (Object.keys(errors).length > 0) return { errors };
  return {
    fields: {
      displayName: draft.displayName,
      pzn: draft.pzn,
      dosage: draft.dosage,
      unit: draft.unit,
      prescriptionName: draft.prescriptionName,
      digital: draft.digital,
      skipForPharmacyOrders: draft.skipForPharmacyOrders,
      ...numbers,
    },
  };
}

function SkuFields({ draft, onChange, errorsOf }: { draft: SkuDraft; onChange: (draft: SkuDraft) => void; errorsOf: (field: string) => string[] | undefined }) {
  const text = (field: keyof SkuDraft & string, label: string, inputMode?: "numeric" | "decimal", hint?: string) => (
    <TextField
      label={label}
      value={draft[field] as string}
      inputMode={inputMode}
      maxLength={255}
      hint={hint}
      onChange={(e) => onChange({ ...draft, [field]: e.target.value })}
      errors={errorsOf(field)}
    />
  );
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <div className="sm:col-span-2">{text("displayName", "SKU name")}</div>
      {text("pzn", "PZN")}
      {text("prescriptionName", "Name on prescriptions")}
      {text("dosage", "Dosage")}
      {text("unit", "Unit", undefined, "e.g. tablets")}
      {text("pcs", "Pieces", "numeric")}
      {text("weight", "Weight", "decimal")}
      {text("therapyDuration", "Therapy duration (days)", "numeric")}
      {text("standardSellingUnit", "Standard selling unit", "decimal")}
      <CheckboxField label="Digital" checked={draft.digital} onChange={(digital) => onChange({ ...draft, digital })} />
      <CheckboxField label="Skip for pharmacy orders" checked={draft.skipForPharmacyOrders} onChange={(skipForPharmacyOrders) => onChange({ ...draft, skipForPharmacyOrders })} />
    </div>
  );
}

function NewSku({ product }: { product: Product }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [draft, setDraft] = useState(draftOf());
  const create = useMutation(
    trpc.admin.catalogue.skus.create.mutationOptions({
      onSuccess: async () => {
        setDraft(draftOf());
        await refresh();
      },
    }),
  );
  const errors = useFieldErrors(create.error);
  function submit(event: FormEvent) {
    event.preventDefault();
    const result = skuFieldsOf(draft);
    if ("errors" in result) return errors.setLocal(result.errors);
    errors.setLocal({});
    create.mutate({ productUid: product.uid, ...(result.fields as { displayName: string }) });
  }
  return (
    <Section title="New SKU">
      <form onSubmit={submit} noValidate aria-label="New SKU" className="space-y-4">
        <SkuFields draft={draft} onChange={setDraft} errorsOf={(f) => errors.of(f)} />
        {create.error && !errors.hasServerFields(create.error) ? <ErrorState message={errorMessage(create.error)} /> : null}
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create SKU"}
        </Button>
      </form>
    </Section>
  );
}

function SkuCard({ product, sku, shops, pharmacyName }: { product: Product; sku: Sku; shops: Shop[]; pharmacyName: (uid: string) => string }) {
  const format = useFormat();
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(() => draftOf(sku));
  const update = useMutation(
    trpc.admin.catalogue.skus.update.mutationOptions({
      onSuccess: async () => {
        setEditing(false);
        await refresh();
      },
    }),
  );
  const remove = useMutation(trpc.admin.catalogue.skus.delete.mutationOptions({ onSuccess: refresh }));
  const errors = useFieldErrors(update.error);
  function submit(event: FormEvent) {
    event.preventDefault();
    const result = skuFieldsOf(draft);
    if ("errors" in result) return errors.setLocal(result.errors);
    errors.setLocal({});
    update.mutate({ uid: sku.uid, ...result.fields });
  }
  const facts = [sku.pzn ? `PZN ${sku.pzn}` : null, sku.digital ? "Digital" : "Physical", [sku.pcs, sku.unit].filter((x) => x !== null).join(" ") || null, sku.dosage, sku.skipForPharmacyOrders ? "Skipped for pharmacy orders" : null].filter(Boolean);
  return (
    <div id={`sku-${sku.uid}`}>
      <Section
        title={sku.displayName}
        actions={
          <div className="flex gap-2">
            <Button tone="secondary" aria-expanded={editing} aria-label={`Edit ${sku.displayName}`} onClick={() => { setEditing((e) => !e); setDraft(draftOf(sku)); }}>
              {editing ? "Cancel" : "Edit"}
            </Button>
            <ConfirmButton
              buttonLabel={`Delete ${sku.displayName}`}
              title={`Delete the SKU ${sku.displayName}?`}
              confirmLabel="Confirm delete"
              pendingLabel="Deleting…"
              onConfirm={() => remove.mutateAsync({ uid: sku.uid })}
              consequence={<p>Deleting the SKU also deletes its shop SKUs and pharmacy SKUs (with their stock): they disappear from every list and API. Orders keep their references.</p>}
            >
              Delete
            </ConfirmButton>
          </div>
        }
      >
        <p className="text-sm text-slate-600">{facts.join(" · ")}</p>
        {editing ? (
          <form onSubmit={submit} noValidate aria-label={`Edit ${sku.displayName}`} className="mt-4 space-y-4 rounded-lg bg-slate-50 p-4">
            <SkuFields draft={draft} onChange={setDraft} errorsOf={(f) => errors.of(f)} />
            {update.error && !errors.hasServerFields(update.error) ? <ErrorState message={errorMessage(update.error)} /> : null}
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? "Saving…" : "Save SKU"}
            </Button>
          </form>
        ) : null}
        <h3 className="mt-5 text-sm font-semibold text-slate-900">Shop SKUs</h3>
        {sku.shopSkus.length === 0 ? (
          <p className="mt-1 text-sm text-slate-500">No shop sells it yet.</p>
        ) : (
          <table className="mt-2 min-w-full text-sm" aria-label={`Shop SKUs of ${sku.displayName}`}>
            <Head columns={["Shop", "Variation id", "Shop SKU", "Price (EUR)", "Last synced stock", "Actions"]} />
            <tbody>
              {sku.shopSkus.map((row) => (
                <ShopSkuRow key={row.uid} row={row} shops={shops} />
              ))}
            </tbody>
          </table>
        )}
        <NewShopSku product={product} sku={sku} shops={shops} />
        <h3 className="mt-5 text-sm font-semibold text-slate-900">Pharmacy SKUs</h3>
        {sku.pharmacySkus.length === 0 ? (
          <p className="mt-1 text-sm text-slate-500">No pharmacy carries it yet.</p>
        ) : (
          <table className="mt-2 min-w-full text-sm" aria-label={`Pharmacy SKUs of ${sku.displayName}`}>
            <Head columns={["Pharmacy", "Pharmacy's id", "Price", "Stock"]} />
            <tbody>
              {sku.pharmacySkus.map((ps) => (
                <tr key={ps.uid} className="border-t border-slate-100">
                  <td className="px-3 py-2">
                    <Link href="/admin/pharmacy-stock" className="text-brand-700 hover:underline">
                      {pharmacyName(ps.pharmacyUid)}
                    </Link>
                  </td>
                  <td className="px-3 py-2 font-mono text-xs">{ps.externalId}</td>
                  <td className="px-3 py-2 tabular-nums">{format.money(ps.price, "EUR")}</td>
                  <td className="px-3 py-2 tabular-nums">{ps.stock}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </div>
  );
}

function ShopSkuRow({ row, shops }: { row: ShopSku; shops: Shop[] }) {
  const format = useFormat();
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [editing, setEditing] = useState(false);
  const [variation, setVariation] = useState(row.shopVariationId ?? "");
  const [shopSku, setShopSku] = useState(row.shopSku ?? "");
  const [price, setPrice] = useState(format.amountInput(row.price));
  const update = useMutation(
    trpc.admin.catalogue.shopSkus.update.mutationOptions({
      onSuccess: async () => {
        setEditing(false);
        await refresh();
      },
    }),
  );
  const remove = useMutation(trpc.admin.catalogue.shopSkus.delete.mutationOptions({ onSuccess: refresh }));
  const errors = useFieldErrors(update.error);
  const shopName = shops.find((s) => s.uid === row.shopUid)?.displayName ?? row.shopUid.slice(0, 8);
  const label = row.shopVariationId ?? row.shopSku ?? "shop SKU";
  function save() {
    const cents = parseAmount(price);
    if (cents === null) return errors.setLocal({ price: ["Enter an amount in euros, e.g. 4.50."] });
    errors.setLocal({});
    update.mutate({ uid: row.uid, shopVariationId: variation, shopSku, price: cents });
  }
  const other = update.error && !errors.hasServerFields(update.error) ? errorMessage(update.error) : null;
  return (
    <>
      <tr className="border-t border-slate-100 align-top">
        <td className="px-3 py-2">{shopName}</td>
        {editing ? (
          <>
            <td className="px-3 py-2">
              <TextField label={`Variation id of ${label}`} value={variation} onChange={(e) => setVariation(e.target.value)} errors={errors.of("shopVariationId")} />
            </td>
            <td className="px-3 py-2">
              <TextField label={`Shop SKU of ${label}`} value={shopSku} onChange={(e) => setShopSku(e.target.value)} errors={errors.of("shopSku")} />
            </td>
            <td className="px-3 py-2">
              <TextField label={`Price of ${label}`} inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} errors={errors.of("price")} />
            </td>
          </>
        ) : (
          <>
            <td className="px-3 py-2 font-mono text-xs">{row.shopVariationId ?? "—"}</td>
            <td className="px-3 py-2 font-mono text-xs">{row.shopSku ?? "—"}</td>
            <td className="px-3 py-2 tabular-nums">{format.amountInput(row.price)}</td>
          </>
        )}
        <td className="px-3 py-2 tabular-nums">{row.lastSyncedStock ?? "—"}</td>
        <td className="px-3 py-2">
          <div className="flex flex-wrap gap-2">
            {editing ? (
              <>
                <Button disabled={update.isPending} onClick={save}>
                  Save
                </Button>
                <Button tone="secondary" onClick={() => setEditing(false)}>
                  Cancel
                </Button>
              </>
            ) : (
              <>
                <Button tone="secondary" aria-label={`Edit ${label} in ${shopName}`} onClick={() => setEditing(true)}>
                  Edit
                </Button>
                <ConfirmButton
                  buttonLabel={`Delete ${label} in ${shopName}`}
                  disabled={remove.isPending}
                  title={`Delete ${label} in ${shopName}?`}
                  confirmLabel="Confirm delete"
                  pendingLabel="Deleting…"
                  onConfirm={() => remove.mutateAsync({ uid: row.uid })}
                  consequence={<p>The shop SKU, with its price, disappears from the catalogue and the APIs. Orders keep their references.</p>}
                >
                  Delete
                </ConfirmButton>
              </>
            )}
          </div>
        </td>
      </tr>
      {other ? (
        <tr>
          <td colSpan={6} className="px-3 pb-2">
            <p role="alert" className="text-sm text-red-700">
              {other}
            </p>
          </td>
        </tr>
      ) : null}
    </>
  );
}

function NewShopSku({ product, sku, shops }: { product: Product; sku: Sku; shops: Shop[] }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [listingUid, setListingUid] = useState(product.shopProducts[0]?.uid ?? "");
  const [variation, setVariation] = useState("");
  const [shopSku, setShopSku] = useState("");
  const [price, setPrice] = useState("");
  const create = useMutation(
    trpc.admin.catalogue.shopSkus.create.mutationOptions({
      onSuccess: async () => {
        setVariation("");
        setShopSku("");
        setPrice("");
        await refresh();
      },
    }),
  );
  const errors = useFieldErrors(create.error);
  const listing = product.shopProducts.find((sp) => sp.uid === listingUid) ?? product.shopProducts[0];
  if (!listing) return <p className="mt-3 text-sm text-slate-500">List the product in a shop (above) to sell this SKU there.</p>;
  const shopName = (uid: string) => shops.find((s) => s.uid === uid)?.displayName ?? uid.slice(0, 8);
  function submit(event: FormEvent) {
    event.preventDefault();
    const cents = parseAmount(price);
    if (cents === null) return errors.setLocal({ price: ["Enter an amount in euros, e.g. 4.50."] });
    errors.setLocal({});
    create.mutate({ shopUid: listing!.shopUid, shopProductUid: listing!.uid, skuUid: sku.uid, shopVariationId: variation, shopSku, price: cents });
  }
  return (
    <form onSubmit={submit} noValidate aria-label={`New shop SKU of ${sku.displayName}`} className="mt-3 grid gap-3 rounded-lg border border-dashed border-slate-300 p-3 sm:grid-cols-[1fr_1fr_1fr_8rem_auto] sm:items-start">
      <SelectField label="Shop listing" value={listing.uid} onChange={(e) => setListingUid(e.target.value)} errors={errors.of("shopUid") ?? errors.of("shopProductUid") ?? errors.of("skuUid")}>
        {product.shopProducts.map((sp) => (
          <option key={sp.uid} value={sp.uid}>
            {shopName(sp.shopUid)} · {sp.externalId}
          </option>
        ))}
      </SelectField>
      <TextField label="Shop variation id" value={variation} maxLength={255} onChange={(e) => setVariation(e.target.value)} errors={errors.of("shopVariationId")} />
      <TextField label="Shop SKU" value={shopSku} maxLength={255} onChange={(e) => setShopSku(e.target.value)} errors={errors.of("shopSku")} />
      <TextField label="Price (EUR)" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} errors={errors.of("price")} />
      <div className="pt-6">
        <Button type="submit" disabled={create.isPending}>
          Add shop SKU
        </Button>
      </div>
      {create.error && !errors.hasServerFields(create.error) ? (
        <div className="sm:col-span-5">
          <ErrorState message={errorMessage(create.error)} />
        </div>
      ) : null}
      {create.isSuccess ? (
        <div className="sm:col-span-5">
          <Notice>Shop SKU added.</Notice>
        </div>
      ) : null}
    </form>
  );
}

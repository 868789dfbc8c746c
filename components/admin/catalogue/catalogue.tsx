"use client";

import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useFormat } from "@/components/ui/format";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { Button, SelectField, TextField } from "@/components/ui/controls";
import { useListSearch } from "@/components/ui/use-list-search";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import type { FieldErrors } from "@/server/domain/errors";
import { createProductInput } from "@/server/trpc/routers/admin-catalogue.schemas";
import { toFieldErrors } from "@/server/wire/field-errors";
import { Pager } from "@/components/ui/pager";
import { CheckboxField, Head, Section } from "./shared";

const PAGE_SIZE = 25;
type View = "products" | "skus" | "shop-skus";
const VIEWS: { view: View; label: string }[] = [
  { view: "products", label: "Products" },
  { view: "skus", label: "SKUs" },
  { view: "shop-skus", label: "Shop SKUs" },
];

/** Products and SKUs: the organisation's products, SKUs and shop SKUs, each list searchable and paged. */
export function Catalogue() {
  const [view, setView] = useState<View>("products");
  return (
    <div className="space-y-6">
      <div role="group" aria-label="Catalogue view" className="inline-flex rounded-lg border border-slate-200 bg-white p-1 shadow-sm">
        {VIEWS.map((v) => (
          <button
            key={v.view}
            type="button"
            aria-pressed={view === v.view}
            onClick={() => setView(v.view)}
            className={`rounded-md px-4 py-1.5 text-sm font-medium ${view === v.view ? "bg-brand-700 text-white" : "text-slate-700 hover:bg-slate-50"}`}
          >
            {v.label}
          </button>
        ))}
      </div>
      {view === "products" ? <Products /> : view === "skus" ? <Skus /> : <ShopSkus />}
    </div>
  );
}


function Products() {
  const format = useFormat();
  const trpc = useTRPC();
  const s = useListSearch();
  const list = useQuery(trpc.admin.catalogue.products.list.queryOptions({ search: s.search, page: s.page, limit: PAGE_SIZE }));
  return (
    <div className="space-y-6">
      <NewProduct />
      <Section title="Products">
        <div className="mb-4 max-w-sm">
          <TextField label="Search" type="search" placeholder="Name or handle" value={s.text} maxLength={100} onChange={(e) => s.setText(e.target.value)} />
        </div>
        {list.isPending ? (
          <LoadingState label="Loading products…" />
        ) : list.isError ? (
          <ErrorState message={errorMessage(list.error)} onRetry={() => void list.refetch()} />
        ) : list.data.items.length === 0 ? (
          <EmptyState title={s.search ? "No product matches your search" : "No products yet"}>{s.search ? "Try another name." : "Create the first one above."}</EmptyState>
        ) : (
          <div className="space-y-4">
            <div className="overflow-x-auto rounded-lg border border-slate-200">
              <table className="min-w-full divide-y divide-slate-200 text-sm">
                <Head columns={["Product", "Handle", "Prescription", "SKUs", "Shops", "Created"]} />
                <tbody className="divide-y divide-slate-100">
                  {list.data.items.map((p) => (
                    <tr key={p.uid}>
                      <td className="px-3 py-2.5">
                        <Link href={`/admin/catalogue/products/${p.uid}`} className="font-medium text-brand-700 hover:underline">
                          {p.displayName}
                        </Link>
                      </td>
                      <td className="px-3 py-2.5 font-mono text-xs text-slate-600">{p.handle ?? "—"}</td>
                      <td className="px-3 py-2.5">{p.prescriptionRequired ? "Required" : "Not required"}</td>
                      <td className="px-3 py-2.5 tabular-nums">{p.skuCount}</td>
                      <td className="px-3 py-2.5 tabular-nums">{p.shopProductCount}</td>
                      <td className="whitespace-nowrap px-3 py-2.5 text-slate-600">{format.dateTime(p.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={s.page} totalPages={list.data.totalPages} total={list.data.total} noun={["product", "products"]} onPage={s.setPage} />
          </div>
        )}
      </Section>
    </div>
  );
}

function NewProduct() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [displayName, setDisplayName] = useState("");
  const [handle, setHandle] = useState("");
  const [prescriptionRequired, setPrescriptionRequired] = useState(true);
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const create = useMutation(
    trpc.admin.catalogue.products.create.mutationOptions({
      onSuccess: async (product) => {
        await queryClient.invalidateQueries({ queryKey: trpc.admin.catalogue.pathKey() });
        router.push(`/admin/catalogue/products/${product.uid}`);
      },
    }),
  );
  const errorsOf = (field: string) => {
    const local = clientErrors[field];
    return Array.isArray(local) ? local : fieldErrors(create.error, field);
  };
  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = createProductInput.safeParse({ displayName, handle, prescriptionRequired });
    if (!parsed.success) return setClientErrors(toFieldErrors(parsed.error.issues));
    setClientErrors({});
    create.mutate({ displayName, handle, prescriptionRequired });
  }
  return (
    <Section title="New product">
      <form onSubmit={submit} noValidate aria-label="New product" className="grid gap-4 sm:grid-cols-[1fr_1fr_auto_auto] sm:items-start">
        <TextField label="Display name" value={displayName} maxLength={255} onChange={(e) => setDisplayName(e.target.value)} errors={errorsOf("displayName")} />
        <TextField label="Handle" value={handle} maxLength={255} onChange={(e) => setHandle(e.target.value)} errors={errorsOf("handle")} hint="Optional: the shop's handle of the product." />
        <CheckboxField label="Prescription required" checked={prescriptionRequired} onChange={setPrescriptionRequired} />
        <div className="pt-6">
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create product"}
          </Button>
        </div>
      </form>
      {create.error && !create.error.data?.fieldErrors ? (
        <div className="mt-3">
          <ErrorState message={errorMessage(create.error)} />
        </div>
      ) : null}
    </Section>
  );
}

function Skus() {
  const format = useFormat();
  const trpc = useTRPC();
  const s = useListSearch();
  const list = useQuery(trpc.admin.catalogue.skus.list.queryOptions({ search: s.search, page: s.page, limit: PAGE_SIZE }));
  return (
    <Section title="SKUs">
      <p className="mb-4 text-sm text-slate-600">Create and edit SKUs on their product&apos;s page.</p>
      <div className="mb-4 max-w-sm">
        <TextField label="Search" type="search" placeholder="Starts with: SKU name, PZN or product name" value={s.text} maxLength={100} onChange={(e) => s.setText(e.target.value)} />
      </div>
      {list.isPending ? (
        <LoadingState label="Loading SKUs…" />
      ) : list.isError ? (
        <ErrorState message={errorMessage(list.error)} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <EmptyState title={s.search ? "No SKU matches your search" : "No SKUs yet"}>{s.search ? "Search matches the start of a name or PZN." : "Add SKUs on a product's page."}</EmptyState>
      ) : (
        <div className="space-y-4">
          <div className="overflow-x-auto rounded-lg border border-slate-200">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <Head columns={["SKU", "PZN", "Kind", "Unit", "Updated"]} />
              <tbody className="divide-y divide-slate-100">
                {list.data.items.map((sku) => (
                  <tr key={sku.uid}>
                    <td className="px-3 py-2.5">
                      <Link href={`/admin/catalogue/products/${sku.productUid}#sku-${sku.uid}`} className="font-medium text-brand-700 hover:underline">
                        {sku.displayName}
                      </Link>
                    </td>
                    <td className="px-3 py-2.5 tabular-nums">{sku.pzn ?? "—"}</td>
                    <td className="px-3 py-2.5">{sku.digital ? "Digital" : "Physical"}</td>
                    <td className="px-3 py-2.5">{[sku.pcs, sku.unit].filter((x) => x !== null).join(" ") || "—"}</td>
                    <td className="whitespace-nowrap px-3 py-2.5 text-slate-600">{format.dateTime(sku.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={s.page} totalPages={list.data.totalPages} total={list.data.total} noun={["SKU", "SKUs"]} onPage={s.setPage} />
        </div>
      )}
    </Section>
  );
}

function ShopSkus() {
  const format = useFormat();
  const trpc = useTRPC();
  const s = useListSearch();
  const [shopUid, setShopUid] = useState("");
  const shops = useQuery(trpc.admin.catalogue.shops.queryOptions());
  const list = useQuery(trpc.admin.catalogue.shopSkus.list.queryOptions({ shopUid: shopUid || undefined, search: s.search, page: s.page, limit: PAGE_SIZE }));
  const shopName = (uid: string) => shops.data?.find((x) => x.uid === uid)?.displayName ?? uid.slice(0, 8);
  return (
    <Section title="Shop SKUs">
      <p className="mb-4 text-sm text-slate-600">What each shop sells, at its price. Create and edit shop SKUs on their product&apos;s page.</p>
      <div className="mb-4 flex flex-wrap gap-4">
        <div className="w-56">
          <SelectField
            label="Shop"
            value={shopUid}
            onChange={(e) => {
              setShopUid(e.target.value);
              s.setPage(0);
            }}
          >
            <option value="">All shops</option>
            {shops.data?.map((shop) => (
              <option key={shop.uid} value={shop.uid}>
                {shop.displayName}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="w-full max-w-sm">
          <TextField label="Search" type="search" placeholder="Starts with: variation id or shop SKU" value={s.text} maxLength={100} onChange={(e) => s.setText(e.target.value)} />
        </div>
      </div>
      {list.isPending ? (
        <LoadingState label="Loading shop SKUs…" />
      ) : list.isError ? (
        <ErrorState message={errorMessage(list.error)} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <EmptyState title={s.search || shopUid ? "No shop SKU matches" : "No shop SKUs yet"}>{s.search || shopUid ? "Try another shop or search." : "Add shop SKUs on a product's page."}</EmptyState>
      ) : (
        <div className="space-y-4">
          <div className="overflow-x-auto rounded-lg border border-slate-200">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <Head columns={["Variation id", "Shop SKU", "SKU", "Product", "Shop", "Price", "Last synced stock"]} />
              <tbody className="divide-y divide-slate-100">
                {list.data.items.map((row) => (
                  <tr key={row.uid}>
                    <td className="px-3 py-2.5 font-mono text-xs">{row.shopVariationId ?? "—"}</td>
                    <td className="px-3 py-2.5 font-mono text-xs">{row.shopSku ?? "—"}</td>
                    <td className="px-3 py-2.5">{row.sku?.displayName ?? <span className="text-slate-500">No SKU</span>}</td>
                    <td className="px-3 py-2.5">
                      <Link href={`/admin/catalogue/products/${row.shopProduct.productUid}`} className="text-brand-700 hover:underline">
                        {row.shopProduct.productName}
                      </Link>
                    </td>
                    <td className="px-3 py-2.5">{shopName(row.shopUid)}</td>
                    <td className="px-3 py-2.5 tabular-nums">{format.money(row.price, "EUR")}</td>
                    <td className="px-3 py-2.5 tabular-nums">{row.lastSyncedStock ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={s.page} totalPages={list.data.totalPages} total={list.data.total} noun={["shop SKU", "shop SKUs"]} onPage={s.setPage} />
        </div>
      )}
    </Section>
  );
}

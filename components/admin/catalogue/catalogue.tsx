"use client";

import { useTranslations } from "next-intl";
import { useUrlState } from "@/components/ui/use-url-state";
import { Products } from "./products";
import { ShopSkus, Skus } from "./sku-lists";

const VIEWS = ["products", "skus", "shop-skus"] as const;
type View = (typeof VIEWS)[number];
const LABEL_KEYS = { products: "views.products", skus: "views.skus", "shop-skus": "views.shopSkus" } as const;

/**
 * Products and SKUs: the organisation's products, SKUs and shop SKUs, each list searchable and paged.
 * The view is `view` in the URL; each list keeps its own search and page (`products-q`, `skus-page` …),
 * so switching views and back keeps where each list was.
 */
export function Catalogue() {
  const t = useTranslations("admin.catalogue");
  const [viewParam, setViewParam] = useUrlState("view");
  const view: View = VIEWS.includes(viewParam as View) ? (viewParam as View) : "products";
  return (
    <div className="space-y-6">
      <div role="group" aria-label={t("views.label")} className="inline-flex max-w-full flex-wrap rounded-lg border border-slate-200 bg-white p-1 shadow-sm">
        {VIEWS.map((v) => (
          <button
            key={v}
            type="button"
            aria-pressed={view === v}
            onClick={() => setViewParam(v === "products" ? undefined : v)}
            className={`rounded-md px-4 py-1.5 text-sm font-medium ${view === v ? "bg-brand-700 text-white" : "text-slate-700 hover:bg-slate-50"}`}
          >
            {t(LABEL_KEYS[v])}
          </button>
        ))}
      </div>
      {view === "products" ? <Products /> : view === "skus" ? <Skus /> : <ShopSkus />}
    </div>
  );
}

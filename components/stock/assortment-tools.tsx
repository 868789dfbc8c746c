"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/controls";
import { AssortmentExport } from "./assortment-export";
import { AssortmentImport } from "./assortment-import";
import type { StockEditor } from "./stock-procedures";

type Tool = "add" | "import" | "export";

/**
 * The assortment's tools above a pharmacy's stock list, each a button that opens its panel (one at
 * a time): "Import CSV" and "Export CSV" in both portals, and "Add SKUs" where the page gives the
 * panel (the admin tool).
 */
export function AssortmentTools({ pharmacyUid, editor, addSkus }: { pharmacyUid: string; editor: StockEditor; addSkus?: ReactNode }) {
  const t = useTranslations("pharmacy.stock.tools");
  const [open, setOpen] = useState<Tool | null>(null);
  const panelId = useId();
  const tools: { tool: Tool; label: string; panel: ReactNode }[] = [
    ...(addSkus ? [{ tool: "add" as const, label: t("add"), panel: addSkus }] : []),
    { tool: "import", label: t("import"), panel: <AssortmentImport pharmacyUid={pharmacyUid} editor={editor} /> },
    { tool: "export", label: t("export"), panel: <AssortmentExport pharmacyUid={pharmacyUid} editor={editor} /> },
  ];
  const current = tools.find((x) => x.tool === open);
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        {tools.map(({ tool, label }) => (
          <Button key={tool} tone="secondary" aria-expanded={open === tool} aria-controls={open === tool ? panelId : undefined} onClick={() => setOpen(open === tool ? null : tool)}>
            {label}
          </Button>
        ))}
      </div>
      {current ? (
        <section id={panelId} aria-label={current.label} className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <div className="flex items-center justify-between gap-2">
            <h2 className="text-sm font-semibold text-slate-900">{current.label}</h2>
            <Button tone="secondary" onClick={() => setOpen(null)}>
              {t("close")}
            </Button>
          </div>
          {current.panel}
        </section>
      ) : null}
    </div>
  );
}

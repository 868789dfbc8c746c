"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { PdfView } from "@/components/orders/pdf-view";
import { Card } from "@/components/ui/card";
import { Button } from "@/components/ui/controls";
import { useFormat } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, Notice } from "@/components/ui/states";
import { StatusBadge } from "@/components/ui/status-badge";
import { useTRPC } from "@/components/trpc/react";
import type { Order } from "./order-detail";

/** The order's prescriptions, each with its source and its PDF on demand. */
export function OrderPrescriptions({ order }: { order: Order }) {
  const t = useTranslations("admin.orders.prescriptions");
  return (
    <Card level={3} title={t("title")}>
      {order.prescriptions.length === 0 ? (
        <p className="text-sm text-slate-600">{t("none")}</p>
      ) : (
        <ul className="space-y-4">
          {order.prescriptions.map((p) => (
            <PrescriptionRow key={p.uid} orderUid={order.uid} prescription={p} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function PrescriptionRow({ orderUid, prescription: p }: { orderUid: string; prescription: Order["prescriptions"][number] }) {
  const t = useTranslations("admin.orders.prescriptions");
  const format = useFormat();
  const [open, setOpen] = useState(false);
  const source = p.source === "DOCTOR" ? t("doctor", { doctor: p.doctor ?? t("notAssigned") }) : p.source === "INLINE_PDF" ? t("inlinePdf") : t("external");
  return (
    <li className="space-y-2">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span className="font-mono text-xs break-all text-slate-600">{p.uid}</span>
        <StatusBadge kind="prescription" status={p.status} />
        <span className="text-slate-700">{source}</span>
        {p.signedAt ? <span className="text-slate-600">{t("signed", { date: format.dateTime(p.signedAt) })}</span> : null}
        {p.hasFile ? (
          <Button tone="secondary" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            {open ? t("hidePdf") : t("showPdf")}
          </Button>
        ) : (
          <span className="text-slate-600">{t("noPdf")}</span>
        )}
      </div>
      {open ? <PrescriptionFile orderUid={orderUid} prescriptionUid={p.uid} /> : null}
    </li>
  );
}

function PrescriptionFile({ orderUid, prescriptionUid }: { orderUid: string; prescriptionUid: string }) {
  const t = useTranslations("admin.orders.prescriptions");
  const trpc = useTRPC();
  const file = useQuery(trpc.admin.orders.prescriptionFile.queryOptions({ orderUid, prescriptionUid }, { staleTime: 60_000, refetchOnWindowFocus: false }));
  return (
    <QueryView query={file} loadingLabel={t("loadingPdf")} isEmpty={(data) => !data} empty={<EmptyState title={t("noPdfYet")} />}>
      {(data) => (
        <div className="space-y-2">
          {!data!.signed ? <Notice tone="warning">{t("notSigned")}</Notice> : null}
          <PdfView filename={data!.filename} contentBase64={data!.contentBase64} />
        </div>
      )}
    </QueryView>
  );
}

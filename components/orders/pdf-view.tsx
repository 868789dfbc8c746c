"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState, type ReactNode } from "react";
import { useFormat } from "@/components/ui/format";
import { ErrorState, LoadingState } from "@/components/ui/states";
import type { PdfTexts } from "./prescription-pdf";

// pdf.js runs in the browser only: the viewer's module is loaded once a page shows a PDF.
type PrescriptionPdfComponent = (props: { filename: string; contentBase64: string; texts: PdfTexts }) => ReactNode;
function usePrescriptionPdfViewer(): { Viewer: PrescriptionPdfComponent | null; failed: boolean } {
  const [state, setState] = useState<{ Viewer: PrescriptionPdfComponent | null; failed: boolean }>({ Viewer: null, failed: false });
  useEffect(() => {
    let live = true;
    import("./prescription-pdf").then(
      (module) => live && setState({ Viewer: module.default, failed: false }),
      () => live && setState({ Viewer: null, failed: true }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

/** A prescription PDF in the page (both portals): the react-pdf viewer, loaded on first use. */
export function PdfView({ filename, contentBase64 }: { filename: string; contentBase64: string }) {
  const t = useTranslations("orders.pdf");
  const format = useFormat();
  const viewer = usePrescriptionPdfViewer();
  const texts: PdfTexts = {
    previousPage: t("previousPage"),
    nextPage: t("nextPage"),
    pageOf: (page, pages) => (page === null || pages === null ? t("pageOfUnknown") : t("pageOf", { page, pages })),
    zoomOut: t("zoomOut"),
    zoomIn: t("zoomIn"),
    zoom: (factor) => format.number(factor, { style: "percent" }),
    download: t("download"),
    loading: t("loading"),
    failed: t("failed"),
  };
  if (viewer.failed) return <ErrorState message={t("viewerFailed")} />;
  if (!viewer.Viewer) return <LoadingState label={t("viewerLoading")} />;
  return <viewer.Viewer filename={filename} contentBase64={contentBase64} texts={texts} />;
}

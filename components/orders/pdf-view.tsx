"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { useFormat } from "@/components/ui/format";
import { ErrorState, LoadingState } from "@/components/ui/states";
import type { PdfTexts } from "./prescription-pdf";

// pdf.js runs in the browser only: the viewer's module (about 100 KB of script, and pdf.js's worker) is
// loaded once the PDF's place comes near the screen. On a phone the actions come first and the PDF
// below them, so the page is usable before pdf.js is even fetched.
type PrescriptionPdfComponent = (props: { filename: string; contentBase64: string; texts: PdfTexts }) => ReactNode;
const NEAR_SCREEN = "400px";
function usePrescriptionPdfViewer(place: RefObject<HTMLElement | null>): { Viewer: PrescriptionPdfComponent | null; failed: boolean; near: boolean } {
  const [state, setState] = useState<{ Viewer: PrescriptionPdfComponent | null; failed: boolean }>({ Viewer: null, failed: false });
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = place.current;
    if (!element || near) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: NEAR_SCREEN });
    observer.observe(element);
    return () => observer.disconnect();
  }, [place, near]);
  useEffect(() => {
    if (!near) return;
    let live = true;
    import("./prescription-pdf").then(
      (module) => live && setState({ Viewer: module.default, failed: false }),
      () => live && setState({ Viewer: null, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [near]);
  return { ...state, near };
}

/** A prescription PDF in the page (both portals): the react-pdf viewer, loaded on first use. */
export function PdfView({ filename, contentBase64 }: { filename: string; contentBase64: string }) {
  const t = useTranslations("orders.pdf");
  const format = useFormat();
  const place = useRef<HTMLDivElement>(null);
  const viewer = usePrescriptionPdfViewer(place);
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
  // Until it nears the screen nothing is loading (no busy region): the same box, quietly waiting.
  if (!viewer.Viewer && !viewer.near) {
    return (
      <div ref={place} data-testid="prescription-pdf-place" className="rounded-lg border border-slate-200 bg-white px-4 py-6 text-sm text-slate-500">
        {t("viewerLoading")}
      </div>
    );
  }
  if (!viewer.Viewer) return <LoadingState label={t("viewerLoading")} />;
  return <viewer.Viewer filename={filename} contentBase64={contentBase64} texts={texts} />;
}

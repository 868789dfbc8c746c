"use client";

import { useEffect, useState, type ReactNode } from "react";
import { ErrorState, LoadingState } from "@/components/ui/states";

type PrescriptionPdfComponent = (props: { filename: string; contentBase64: string }) => ReactNode;

// pdf.js runs in the browser only: the viewer's module is loaded once a page shows a prescription.
function usePrescriptionPdfModule(): { Viewer: PrescriptionPdfComponent | null; failed: boolean } {
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

/** A prescription PDF in the page (both portals), with the viewer's own loading and failure states. */
export function PrescriptionPdfViewer({ filename, contentBase64 }: { filename: string; contentBase64: string }) {
  const viewer = usePrescriptionPdfModule();
  if (viewer.failed) return <ErrorState message="The PDF viewer could not be loaded. Reload the page to try again." />;
  if (!viewer.Viewer) return <LoadingState label="Loading the viewer…" />;
  return <viewer.Viewer filename={filename} contentBase64={contentBase64} />;
}

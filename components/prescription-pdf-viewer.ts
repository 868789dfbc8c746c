"use client";

import { useEffect, useState, type ReactNode } from "react";

// pdf.js runs in the browser only: the viewer's module (prescription-pdf.tsx) is loaded once a page shows a prescription.
type PrescriptionPdfComponent = (props: { filename: string; contentBase64: string }) => ReactNode;

/** The prescription PDF viewer, loaded on first use (both portals: pharmacy order detail, doctors' workspace). */
export function usePrescriptionPdfViewer(): { Viewer: PrescriptionPdfComponent | null; failed: boolean } {
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

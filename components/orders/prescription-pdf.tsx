/* Browser only: loaded by pdf-view.tsx with import() once a prescription is shown (no "use client": it is never a boundary). */
import { useEffect, useMemo, useRef, useState } from "react";
import { Document, Page, pdfjs } from "react-pdf";
import { Button } from "@/components/ui/controls";
import { ErrorState, LoadingState } from "@/components/ui/states";

// The pdf.js worker from the installed pdfjs-dist, bundled with the application (never a CDN).
pdfjs.GlobalWorkerOptions.workerSrc = new URL("pdfjs-dist/build/pdf.worker.min.mjs", import.meta.url).toString();

// Relative to the frame's width: 100 % fits the page into it (a phone's 390 px too), never wider than A4 at 96 dpi.
const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2];
const A4_WIDTH_PX = 794;
/** The frame's padding (p-4 on both sides). */
const FRAME_PADDING_PX = 32;

/** The width a page fits into: the frame's inner width, followed as it changes (rotation, resize). */
function useFitWidth() {
  const frame = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(120, Math.min(A4_WIDTH_PX, element.clientWidth - FRAME_PADDING_PX)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { frame, width };
}

let documentsShown = 0;

function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A prescription PDF in the page (react-pdf): its pages one at a time, zoom, and a download of the signed file. */
export type PdfTexts = {
  previousPage: string;
  nextPage: string;
  /** "Page 1 of 3", or its placeholder while the page count is unknown. */
  pageOf: (page: number | null, pages: number | null) => string;
  zoomOut: string;
  zoomIn: string;
  /** The zoom as a percentage ("125 %" or "125%", by language). */
  zoom: (factor: number) => string;
  download: string;
  loading: string;
  failed: string;
};

/** The texts come from PdfView (this module is loaded on its own, outside the page's render). */
export default function PrescriptionPdf({ filename, contentBase64, texts }: { filename: string; contentBase64: string; texts: PdfTexts }) {
  // One Blob per file: react-pdf reloads the document whenever `file` is a new object.
  const blob = useMemo(() => new Blob([bytesOf(contentBase64)], { type: "application/pdf" }), [contentBase64]);
  // A new file mounts a new Document and Page: a Page kept across the change asked the old, destroyed
  // document for its page ("reading 'sendWithPromise'"), when a saved dosage re-rendered the draft.
  const documentKey = useMemo(() => ++documentsShown, [blob]);
  const [downloadUrl, setDownloadUrl] = useState<string | null>(null);
  useEffect(() => {
    const url = URL.createObjectURL(blob);
    setDownloadUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  const [pageCount, setPageCount] = useState(0);
  const [pageNumber, setPageNumber] = useState(1);
  const [zoom, setZoom] = useState(2);
  const fit = useFitWidth();

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Button tone="secondary" disabled={pageNumber <= 1} onClick={() => setPageNumber((n) => n - 1)}>
          {texts.previousPage}
        </Button>
        <span className="tabular-nums text-slate-600" aria-live="polite">
          {pageCount ? texts.pageOf(pageNumber, pageCount) : texts.pageOf(null, null)}
        </span>
        <Button tone="secondary" disabled={pageNumber >= pageCount} onClick={() => setPageNumber((n) => n + 1)}>
          {texts.nextPage}
        </Button>
        <span className="mx-2 h-5 w-px bg-slate-200" aria-hidden />
        <Button tone="secondary" disabled={zoom === 0} onClick={() => setZoom((z) => Math.max(0, z - 1))}>
          {texts.zoomOut}
        </Button>
        <span className="w-12 text-center tabular-nums text-slate-600">{texts.zoom(ZOOM_STEPS[zoom]!)}</span>
        <Button tone="secondary" disabled={zoom === ZOOM_STEPS.length - 1} onClick={() => setZoom((z) => Math.min(ZOOM_STEPS.length - 1, z + 1))}>
          {texts.zoomIn}
        </Button>
        {downloadUrl ? (
          <a href={downloadUrl} download={filename} className="ml-auto rounded-md border border-slate-300 bg-white px-3 py-2 font-medium text-slate-800 shadow-sm hover:bg-slate-50">
            {texts.download}
          </a>
        ) : null}
      </div>
      <div ref={fit.frame} className="overflow-auto rounded-lg border border-slate-200 bg-slate-100 p-4" data-testid="prescription-pdf">
        <Document
          key={documentKey}
          file={blob}
          onLoadSuccess={({ numPages }) => {
            setPageCount(numPages);
            setPageNumber((n) => Math.min(Math.max(1, n), numPages));
          }}
          loading={<LoadingState label={texts.loading} />}
          error={<ErrorState message={texts.failed} />}
        >
          {fit.width === null ? null : (
            <Page pageNumber={pageNumber} width={fit.width} scale={ZOOM_STEPS[zoom]} renderTextLayer={false} renderAnnotationLayer={false} className="mx-auto w-fit shadow" />
          )}
        </Document>
      </div>
    </div>
  );
}

/** How the admin tool names prescription sources. */
export const SOURCE_LABELS: Record<string, string> = {
  DOCTOR: "Doctor of the service",
  INLINE_PDF: "Signed PDF at intake",
  EXTERNAL: "Signed outside",
};

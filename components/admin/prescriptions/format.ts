import { useTranslations } from "next-intl";

const SOURCES = ["DOCTOR", "INLINE_PDF", "EXTERNAL"] as const;

/** How the admin tool names prescription sources (admin.prescriptions.sources.*); an unknown one as it is. */
export function useSourceLabel(): (source: string) => string {
  const t = useTranslations("admin.prescriptions.sources");
  return (source) => ((SOURCES as readonly string[]).includes(source) ? t(source as (typeof SOURCES)[number]) : source);
}

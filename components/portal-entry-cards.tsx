import Link from "next/link";
import { getTranslations } from "next-intl/server";

/** What the pharmacy portal does today, each a page of its own. */
const pharmacyPortal = ["queue", "order", "stock", "more"] as const;

/** The pharmacy portal, behind portal sign-in. */
export async function PortalEntryCards() {
  const t = await getTranslations("landing");
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <p className="text-sm leading-6 text-slate-600">{t("portalIntro")}</p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm leading-6 text-slate-600">
        {pharmacyPortal.map((line) => (
          <li key={line}>{t(`portalFeatures.${line}`)}</li>
        ))}
      </ul>
      <Link
        href="/pharmacy"
        prefetch={false}
        className="mt-5 inline-flex w-fit items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm hover:border-brand-600 hover:text-brand-700"
      >
        {t("openPortal")}
      </Link>
    </div>
  );
}

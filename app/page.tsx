import { getTranslations } from "next-intl/server";
import { ApiFamilies } from "@/components/api-families";
import { PortalEntryCards } from "@/components/portal-entry-cards";
import { SiteHeader } from "@/components/site-header";

export default async function LandingPage() {
  const t = await getTranslations("landing");
  return (
    <>
      <SiteHeader />
      <main className="mx-auto max-w-5xl px-6 pb-20">
        <section className="py-14">
          <p className="text-sm font-medium text-brand-700">{t("eyebrow")}</p>
          <h1 className="mt-2 text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
            {t("title")}
          </h1>
          <p className="mt-5 max-w-3xl text-base leading-7 text-slate-600">{t("intro")}</p>
        </section>

        <section aria-labelledby="portals-heading" className="pb-14">
          <h2 id="portals-heading" className="text-lg font-semibold text-slate-900">
            {t("portalsHeading")}
          </h2>
          <div className="mt-4">
            <PortalEntryCards />
          </div>
        </section>

        <section id="apis" aria-labelledby="apis-heading">
          <h2 id="apis-heading" className="text-lg font-semibold text-slate-900">
            {t("apisHeading")}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{t("apisIntro")}</p>
          <div className="mt-4">
            <ApiFamilies />
          </div>
        </section>
      </main>
    </>
  );
}

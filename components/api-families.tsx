import Link from "next/link";
import { getTranslations } from "next-intl/server";

type ApiFamily = {
  name: string;
  basePath: string;
  /** Who it is for: a key of the messages' landing.audience. */
  audience: "management" | "public" | "pharmacy" | "payouts";
  explorer?: string;
};

/** The REST API families this service serves today, each with its own base path and kind of API key. */
export const apiFamilies: readonly ApiFamily[] = [
  {
    name: "Management API",
    basePath: "/v1/management",
    audience: "management",
    explorer: "/v1/management/apidocs",
  },
  {
    name: "Public API",
    basePath: "/v2/public-api",
    audience: "public",
    explorer: "/v2/public-api/apidocs",
  },
  {
    name: "External Pharmacy API",
    basePath: "/v1/external_pharmacy_api",
    audience: "pharmacy",
    explorer: "/v1/external_pharmacy_api/apidocs",
  },
  {
    name: "Pharmacy payouts",
    basePath: "/v1/external-pharmacy-api-v1/payouts",
    audience: "payouts",
    explorer: "/v1/external-pharmacy-api-v1/apidocs",
  },
];

/** Table of the API families for the landing page. */
export async function ApiFamilies() {
  const t = await getTranslations("landing");
  // relative: the visually hidden header (absolute) stays inside the scroller instead of widening the page at 390 px.
  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-50 text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-3 py-3 sm:px-5">
              {t("apiColumn")}
            </th>
            <th scope="col" className="px-3 py-3 sm:px-5">
              {t("basePathColumn")}
            </th>
            <th scope="col" className="hidden px-5 py-3 md:table-cell">
              {t("forColumn")}
            </th>
            <th scope="col" className="px-3 py-3 sm:px-5">
              <span className="sr-only">{t("explorerColumn")}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {apiFamilies.map((family) => (
            <tr key={family.basePath} data-testid="api-family">
              <th scope="row" className="px-3 py-4 font-medium text-slate-900 sm:px-5">
                {family.name}
              </th>
              <td className="px-3 py-4 sm:px-5">
                <code className="break-all rounded md:whitespace-nowrap md:break-normal bg-slate-100 px-1.5 py-0.5 font-mono text-[13px] text-slate-800">
                  {family.basePath}
                </code>
              </td>
              <td className="hidden px-5 py-4 text-slate-600 md:table-cell">{t(`audience.${family.audience}`)}</td>
              <td className="px-3 py-4 text-right sm:px-5 sm:whitespace-nowrap">
                {family.explorer ? (
                  <Link href={family.explorer} prefetch={false} className="font-medium text-brand-700 hover:text-brand-800">
                    {t("explorer")}
                  </Link>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

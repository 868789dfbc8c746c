import { ApiFamilies } from "@/components/api-families";
import { PortalEntryCards } from "@/components/portal-entry-cards";
import { SiteHeader } from "@/components/site-header";

export default function LandingPage() {
  return (
    <>
      <SiteHeader />
      <main className="mx-auto max-w-5xl px-6 pb-20">
        <section className="py-14">
          <p className="text-sm font-medium text-brand-700">Prescription fulfilment service</p>
          <h1 className="mt-2 text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
            From prescription to parcel, through one API.
          </h1>
          <p className="mt-5 max-w-3xl text-base leading-7 text-slate-600">
            Rx Fulfilment is a prescription and pharmacy fulfilment platform. Online shops and telemedicine
            platforms send orders through the REST APIs below. Prescriptions arrive as signed prescriptions of the
            organisation, as PDFs with a qualified electronic signature (checked during the request), or go to a
            doctor first. Each fulfilment is routed to a pharmacy, which works it to completion with tracking links
            in the pharmacy portal or over its own API, keeps its stock and prices there, sees its payouts, and is
            told about every change by signed webhooks.
          </p>
        </section>

        <section aria-labelledby="portals-heading" className="pb-14">
          <h2 id="portals-heading" className="text-lg font-semibold text-slate-900">
            Pharmacy portal
          </h2>
          <div className="mt-4">
            <PortalEntryCards />
          </div>
        </section>

        <section id="apis" aria-labelledby="apis-heading">
          <h2 id="apis-heading" className="text-lg font-semibold text-slate-900">
            REST APIs
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            JSON over HTTPS. Each family has its own base path and its own kind of API key. Timestamps are Unix
            seconds; money is in minor units.
          </p>
          <div className="mt-4">
            <ApiFamilies />
          </div>
        </section>
      </main>
    </>
  );
}

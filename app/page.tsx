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
            platforms push in orders; prescriptions are signed by doctors, signed elsewhere or uploaded as signed
            PDFs; each order is routed to a pharmacy and followed through dispatch and delivery. The service keeps
            the product, SKU and pharmacy catalogues with prices and stock, calculates payouts to pharmacies, runs a
            virtual doctor waiting room and patient wallet passes, and tells integrators about every change with
            signed webhooks. Integrators use the REST APIs below; organisation administrators use the admin tool, and
            pharmacists handle their orders in the pharmacy portal.
          </p>
        </section>

        <section aria-labelledby="portals-heading" className="pb-14">
          <h2 id="portals-heading" className="text-lg font-semibold text-slate-900">
            Portals
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

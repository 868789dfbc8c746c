import Link from "next/link";

/** What the pharmacy portal does today, each a page of its own. */
const pharmacyPortal = [
  "the order queue with status tabs, search and bulk status changes",
  "each order with its prescription PDF, completion with tracking, clarification requests and history",
  "stock and prices of the pharmacy's SKUs, with recent stock movements",
  "payouts, shipping-method identifiers, API keys, webhooks and their delivery logs",
];

/** The pharmacy portal, behind portal sign-in. */
export function PortalEntryCards() {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <p className="text-sm leading-6 text-slate-600">For pharmacists, everything the External Pharmacy API offers, in the browser:</p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm leading-6 text-slate-600">
        {pharmacyPortal.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <Link
        href="/pharmacy"
        prefetch={false}
        className="mt-5 inline-flex w-fit items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm hover:border-brand-600 hover:text-brand-700"
      >
        Open the pharmacy portal
      </Link>
    </div>
  );
}

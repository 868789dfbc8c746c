import Link from "next/link";

const portals = [
  {
    name: "Admin tool",
    href: "/admin",
    text: "For organisation administrators: orders, prescriptions, catalogue, pharmacies, API keys and webhooks.",
  },
  {
    name: "Pharmacy portal",
    href: "/pharmacy",
    text: "For pharmacists: incoming pharmacy orders, dispatch and tracking, stock of pharmacy SKUs and payouts.",
  },
] as const;

/** The two portals, each behind portal sign-in. */
export function PortalEntryCards() {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {portals.map((portal) => (
        <div key={portal.href} className="flex flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <h3 className="font-semibold text-slate-900">{portal.name}</h3>
          <p className="mt-2 flex-1 text-sm leading-6 text-slate-600">{portal.text}</p>
          <Link
            href={portal.href}
            prefetch={false}
            className="mt-5 inline-flex w-fit items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm hover:border-brand-600 hover:text-brand-700"
          >
            Sign in to the {portal.name.toLowerCase()}
          </Link>
        </div>
      ))}
    </div>
  );
}

"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** Where everything in the pharmacy portal is: the work first, then settings and API access. */
const SECTIONS: { title: string; links: { href: string; label: string }[] }[] = [
  {
    title: "Work",
    links: [
      { href: "/pharmacy", label: "Home" },
      { href: "/pharmacy/orders", label: "Orders" },
      { href: "/pharmacy/stock", label: "Stock and prices" },
      { href: "/pharmacy/payouts", label: "Payouts" },
    ],
  },
  {
    title: "Settings",
    links: [
      { href: "/pharmacy/settings/shipping-methods", label: "Shipping methods" },
      { href: "/pharmacy/settings/api-keys", label: "API keys" },
    ],
  },
  {
    title: "API access",
    links: [
      { href: "/pharmacy/api-access/webhooks", label: "Webhooks" },
      { href: "/pharmacy/api-access/delivery-logs", label: "Webhook delivery logs" },
    ],
  },
];

const isCurrent = (pathname: string, href: string) => (href === "/pharmacy" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`));

export function PharmacyNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Pharmacy portal" className="space-y-6">
      {SECTIONS.map((section) => (
        <div key={section.title}>
          <p className="px-3 text-xs font-semibold uppercase tracking-wide text-slate-500">{section.title}</p>
          <ul className="mt-2 space-y-1">
            {section.links.map((link) => {
              const current = isCurrent(pathname, link.href);
              return (
                <li key={link.href}>
                  <Link
                    href={link.href}
                    aria-current={current ? "page" : undefined}
                    className={`block rounded-md px-3 py-1.5 text-sm ${current ? "bg-brand-50 font-medium text-brand-800" : "text-slate-700 hover:bg-slate-100"}`}
                  >
                    {link.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}

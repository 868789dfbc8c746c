"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** The admin tool's sections that exist today; the rest of the tool joins this list as it is built. */
const SECTIONS: { title: string; links: { href: string; label: string }[] }[] = [
  { title: "Overview", links: [{ href: "/admin", label: "Home" }] },
  {
    title: "Settings",
    links: [
      { href: "/admin/api-keys", label: "API keys" },
      { href: "/admin/telemedicine-providers", label: "Telemedicine providers" },
    ],
  },
];

const isCurrent = (pathname: string, href: string) => (href === "/admin" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`));

export function AdminNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Admin tool" className="space-y-6">
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

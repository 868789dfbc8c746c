"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";

/**
 * `also`: further path prefixes under which the link is current (a home link's own sub-pages).
 * `count`: a number waiting there (shown beside the label when above zero), `countLabel` its words.
 */
export type NavSection = { title: string; links: { href: string; label: string; also?: string[]; count?: number; countLabel?: string }[] };

/** A portal's side navigation: its sections of links, the current page marked; `home` is current only on itself. */
export function PortalNav({ label, home, sections }: { label: string; home: string; sections: NavSection[] }) {
  const pathname = usePathname();
  const router = useRouter();
  // Prefetched when the reader points at a link, not as the menu appears: every portal page shows the
  // whole navigation (twice on a phone, the menu too), and prefetching it all was 44 requests at load.
  const prefetch = (href: string) => router.prefetch(href);
  const under = (prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);
  const isCurrent = (link: { href: string; also?: string[] }) =>
    (link.href === home ? pathname === link.href : under(link.href)) || (link.also ?? []).some(under);
  return (
    <nav aria-label={label} className="space-y-6">
      {sections.map((section) => (
        <div key={section.title}>
          <p className="px-3 text-xs font-semibold uppercase tracking-wide text-slate-500">{section.title}</p>
          <ul className="mt-2 space-y-1">
            {section.links.map((link) => {
              const current = isCurrent(link);
              return (
                <li key={link.href}>
                  <Link
                    href={link.href}
                    prefetch={false}
                    onMouseEnter={() => prefetch(link.href)}
                    onFocus={() => prefetch(link.href)}
                    onTouchStart={() => prefetch(link.href)}
                    aria-current={current ? "page" : undefined}
                    className={`block rounded-md px-3 py-1.5 text-sm ${current ? "bg-brand-50 font-medium text-brand-800" : "text-slate-700 hover:bg-slate-100"}`}
                  >
                    {link.label}
                    {link.count ? (
                      <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-800" aria-label={link.countLabel}>
                        {link.count}
                      </span>
                    ) : null}
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

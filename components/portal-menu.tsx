"use client";

import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState, type ReactNode } from "react";

/**
 * The shell's moving parts: the header, the navigation and the page. From 1024 px (`lg`) the
 * navigation is a side column; below, a "Menu" button in the header shows it above the page (it
 * closes again when the user follows a link), so the page starts right below the header.
 */
export function PortalMenu({ brand, tools, nav, children }: { brand: ReactNode; tools: ReactNode; nav: ReactNode; children: ReactNode }) {
  const t = useTranslations("shell");
  const navId = useId();
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  // Another page: the small-screen menu closes (state adjusted while rendering, not in an effect).
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(false);
  }
  return (
    <>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-3 px-4 sm:px-6">
          <button
            type="button"
            aria-expanded={open}
            aria-controls={navId}
            onClick={() => setOpen((value) => !value)}
            className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50 lg:hidden"
          >
            {t("menu")}
          </button>
          <div className="min-w-0 flex-1 overflow-hidden">{brand}</div>
          <div className="flex shrink-0 items-center gap-3">{tools}</div>
        </div>
      </header>
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:flex lg:gap-8">
        <div id={navId} className={`${open ? "block" : "hidden"} border-b border-slate-200 py-4 lg:block lg:w-56 lg:shrink-0 lg:border-0 lg:py-8`}>
          {nav}
        </div>
        {children}
      </div>
    </>
  );
}

"use client";

import { useLocale, useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useId, useTransition } from "react";
import { saveLocale } from "@/i18n/save-locale";
import { LOCALES } from "@/i18n/locales";

/** The page's language: saved for this browser and, when signed in, for the user (i18n/save-locale.ts); the page then renders again in it. */
export function LanguageSwitch() {
  const t = useTranslations("language");
  const locale = useLocale();
  const router = useRouter();
  const id = useId();
  const [pending, startTransition] = useTransition();
  return (
    <div className="flex items-center gap-2 text-sm">
      {/* On a phone the label is for screen readers only: the header has no room for it. */}
      <label htmlFor={id} className="sr-only text-slate-600 sm:not-sr-only">
        {t("label")}
      </label>
      <select
        id={id}
        value={locale}
        disabled={pending}
        onChange={(event) => {
          const next = event.target.value;
          startTransition(async () => {
            await saveLocale(next);
            router.refresh();
          });
        }}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-800 shadow-sm"
      >
        {LOCALES.map((option) => (
          <option key={option} value={option} lang={option}>
            {t(option)}
          </option>
        ))}
      </select>
    </div>
  );
}

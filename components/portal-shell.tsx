import { getTranslations } from "next-intl/server";
import { Suspense, type ReactNode } from "react";
import { Brand } from "./brand";
import { LanguageSwitch } from "./language-switch";
import { PortalMenu } from "./portal-menu";
import { LoadingState } from "./ui/states";
import { SignOutButton } from "./sign-out-button";

/**
 * Frame of every portal (mounted once by the portal's layout): a skip link, the header with who is
 * signed in and a way out, the portal's navigation (a side column from 1024 px, behind a "Menu"
 * button below) and the page in `<main id="main">`.
 */
export async function PortalShell({
  portal,
  userName,
  place,
  nav,
  children,
}: {
  portal: string;
  userName: string;
  /** Organisation, pharmacy or pharmacy group the user works for. */
  place: string;
  /** The portal's navigation. */
  nav: ReactNode;
  children: ReactNode;
}) {
  const t = await getTranslations("shell");
  return (
    <div className="min-h-screen">
      {/* The first Tab stop: past the header and the navigation to the page. */}
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-brand-800 focus:shadow"
      >
        {t("skipToMain")}
      </a>
      <PortalMenu
        brand={<Brand suffix={portal} />}
        tools={
          <>
            {/* Who is signed in, the language and the way out. */}
            <div className="hidden text-right text-sm leading-tight sm:block" data-testid="signed-in-user">
              <div className="font-medium text-slate-900">{userName}</div>
              <div className="text-slate-500">{place}</div>
            </div>
            <LanguageSwitch />
            <SignOutButton />
          </>
        }
        nav={nav}
      >
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 py-6 focus:outline-none lg:py-8">
          {/* Lists keep their state in the query string (useSearchParams needs a boundary above it). */}
          <Suspense fallback={<LoadingState />}>{children}</Suspense>
        </main>
      </PortalMenu>
    </div>
  );
}

/** A labelled value in a portal overview. */
export function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-1 text-sm text-slate-900">{value}</dd>
    </div>
  );
}

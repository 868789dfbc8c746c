import Link from "next/link";
import { connection } from "next/server";
import { getTranslations } from "next-intl/server";
import { currentPortalUser } from "@/server/auth/portal-session";
import { portalHome } from "@/server/auth/portal-roles";
import { Brand } from "./brand";
import { SignOutButton } from "./sign-out-button";

/** Header of the public pages (landing page, sign-in): the signed-in user and their portal, or "Sign in". */
export async function SiteHeader() {
  // Rendered per request (the session cookie), never at build time, which must not read the session secret.
  await connection();
  const user = await currentPortalUser();
  const t = await getTranslations("shell");
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-16 max-w-5xl items-center justify-between gap-4 px-6">
        <Brand />
        <nav aria-label={t("siteNav")} className="flex items-center gap-6 text-sm">
          <Link prefetch={false} href="/#apis" className="text-slate-600 hover:text-slate-900">
            {t("apis")}
          </Link>
          {user ? (
            <>
              <Link href={portalHome(user.role)} prefetch={false} className="font-medium text-brand-700 hover:text-brand-800">
                {t(`portals.${user.role}`)}
              </Link>
              <div className="hidden text-right leading-tight sm:block" data-testid="signed-in-user">
                <div className="font-medium text-slate-900">{user.name}</div>
                <div className="text-slate-500">{user.email}</div>
              </div>
              <SignOutButton />
            </>
          ) : (
            <Link prefetch={false}
              href="/signin"
              className="rounded-md bg-brand-700 px-3 py-1.5 font-medium text-white shadow-sm hover:bg-brand-800"
            >
              {t("signIn")}
            </Link>
          )}
        </nav>
      </div>
    </header>
  );
}

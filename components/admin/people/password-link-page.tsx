import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { SiteHeader } from "@/components/site-header";
import { TrpcReactProvider } from "@/components/trpc/react";
import { describePasswordToken } from "@/server/domain/users/password-tokens";
import { SetPasswordForm } from "./set-password-form";

const TEXT = {
  INVITATION: { title: "invitationTitle", intro: "invitationIntro" },
  PASSWORD_RESET: { title: "resetTitle", intro: "resetIntro" },
} as const;

/** The public page of a one-time password link (/invitation/…, /reset-password/…), in the sign-in page's look. */
export async function PasswordLinkPage({ token, purpose }: { token: string; purpose: "INVITATION" | "PASSWORD_RESET" }) {
  const link = await describePasswordToken(token, purpose);
  const t = await getTranslations("passwordLink");
  return (
    <>
      <SiteHeader />
      <main className="mx-auto flex max-w-5xl justify-center px-6 py-16">
        <div className="w-full max-w-sm">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t(TEXT[purpose].title)}</h1>
          <p className="mt-2 text-sm text-slate-600">{link.state === "valid" ? t(TEXT[purpose].intro) : t("unusable")}</p>
          <div className="mt-8 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
            {link.state === "valid" ? (
              <TrpcReactProvider>
                <SetPasswordForm token={token} purpose={purpose} email={link.email} />
              </TrpcReactProvider>
            ) : (
              <div className="space-y-4">
                <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
                  {t(link.state)}
                </p>
                <Link prefetch={false} href="/signin" className="text-sm font-medium text-brand-700 hover:text-brand-800">
                  {t("goToSignIn")}
                </Link>
              </div>
            )}
          </div>
        </div>
      </main>
    </>
  );
}

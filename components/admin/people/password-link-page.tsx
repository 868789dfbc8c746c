import Link from "next/link";
import { SiteHeader } from "@/components/site-header";
import { TrpcReactProvider } from "@/components/trpc/react";
import { describePasswordToken } from "@/server/domain/users/password-tokens";
import { SetPasswordForm } from "./set-password-form";

const TEXT = {
  INVITATION: { title: "Welcome", intro: "You have been invited. Choose a password to finish setting up your account." },
  PASSWORD_RESET: { title: "Reset your password", intro: "Choose a new password for your account." },
} as const;

const PROBLEMS = {
  expired: "This link has expired. Ask your administrator for a new one.",
  used: "This link has already been used. Sign in with your password, or ask your administrator for a new link.",
  invalid: "This link is not valid. Ask your administrator for a new one.",
} as const;

/** The public page of a one-time password link (/invitation/…, /reset-password/…), in the sign-in page's look. */
export async function PasswordLinkPage({ token, purpose }: { token: string; purpose: "INVITATION" | "PASSWORD_RESET" }) {
  const link = await describePasswordToken(token, purpose);
  return (
    <>
      <SiteHeader />
      <main className="mx-auto flex max-w-5xl justify-center px-6 py-16">
        <div className="w-full max-w-sm">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{TEXT[purpose].title}</h1>
          <p className="mt-2 text-sm text-slate-600">{link.state === "valid" ? TEXT[purpose].intro : "This link cannot be used."}</p>
          <div className="mt-8 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
            {link.state === "valid" ? (
              <TrpcReactProvider>
                <SetPasswordForm token={token} purpose={purpose} email={link.email} />
              </TrpcReactProvider>
            ) : (
              <div className="space-y-4">
                <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
                  {PROBLEMS[link.state]}
                </p>
                <Link href="/signin" className="text-sm font-medium text-brand-700 hover:text-brand-800">
                  Go to sign-in
                </Link>
              </div>
            )}
          </div>
        </div>
      </main>
    </>
  );
}

"use client";

import { getSession, signIn } from "next-auth/react";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { portalHome, sameOriginCallbackUrl } from "@/server/auth/portal-roles";

/** next-auth's error code in words. */
function useMessageFor(): (code: string) => string {
  const t = useTranslations("auth.errors");
  return (code) => {
    // A throttled sign-in (server/auth/portal-session.ts): `TooManyAttempts:<minutes>`.
    const throttled = /^TooManyAttempts:(\d+)$/.exec(code);
    if (throttled) return t("tooManyAttempts", { minutes: Number(throttled[1]) });
    if (code === "CredentialsSignin") return t("credentials");
    if (code === "SessionRequired") return t("sessionRequired");
    return t("failed");
  };
}

/**
 * Email and password sign-in. Posts to next-auth without letting it redirect, then navigates to
 * the callback URL when it is of this origin, or to the user's own portal when there is none.
 */
export function SignInForm({ callbackUrl, errorCode, defaultEmail }: { callbackUrl?: string; errorCode?: string; defaultEmail?: string }) {
  const t = useTranslations("auth");
  const messageFor = useMessageFor();
  const [error, setError] = useState<string | null>(errorCode ? messageFor(errorCode) : null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const result = await signIn("credentials", {
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        redirect: false,
      });
      if (!result?.ok || result.error) {
        setError(messageFor(result?.error ?? ""));
        setPending(false);
        return;
      }
      let target = sameOriginCallbackUrl(callbackUrl, window.location.origin);
      if (!target) {
        const session = await getSession();
        target = session?.user?.role ? portalHome(session.user.role) : "/";
      }
      // A full navigation, so the server renders the portal with the new session cookie.
      window.location.assign(target);
    } catch {
      setError(messageFor(""));
      setPending(false);
    }
  }

  // method="post": a submit before hydration must not put the password into the URL.
  return (
    <form method="post" onSubmit={onSubmit} className="space-y-5">
      {error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <div>
        <label htmlFor="email" className="block text-sm font-medium text-slate-700">
          {t("email")}
        </label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          defaultValue={defaultEmail}
          autoFocus={!defaultEmail}
          className="mt-1.5 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-100"
        />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium text-slate-700">
          {t("password")}
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          autoFocus={!!defaultEmail}
          className="mt-1.5 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-100"
        />
      </div>
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-brand-700 px-3 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-800 disabled:opacity-60"
      >
        {pending ? t("submitting") : t("submit")}
      </button>
    </form>
  );
}

import type { ReactNode } from "react";
import { Brand } from "./brand";
import { LanguageSwitch } from "./language-switch";
import { SignOutButton } from "./sign-out-button";

/** Frame of every portal page: who is signed in, where they work, and a way out. */
export function PortalShell({
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
  /** The portal's navigation, shown beside the page. */
  nav?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-6">
          <Brand suffix={portal} />
          <div className="flex items-center gap-4">
            <div className="hidden text-right text-sm leading-tight sm:block" data-testid="signed-in-user">
              <div className="font-medium text-slate-900">{userName}</div>
              <div className="text-slate-500">{place}</div>
            </div>
            <LanguageSwitch />
            <SignOutButton />
          </div>
        </div>
      </header>
      {nav ? (
        <div className="mx-auto flex max-w-7xl flex-col gap-8 px-6 py-8 md:flex-row">
          <aside className="shrink-0 md:w-52">{nav}</aside>
          <main className="min-w-0 flex-1">{children}</main>
        </div>
      ) : (
        <main className="mx-auto max-w-6xl px-6 py-10">{children}</main>
      )}
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

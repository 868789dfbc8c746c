import Link from "next/link";
import { Brand } from "./brand";

/** Header of the public pages (landing page, sign-in). */
export function SiteHeader() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-16 max-w-5xl items-center justify-between px-6">
        <Brand />
        <nav className="flex items-center gap-6 text-sm">
          <Link href="/#apis" className="text-slate-600 hover:text-slate-900">
            APIs
          </Link>
          <Link
            href="/signin"
            className="rounded-md bg-brand-700 px-3 py-1.5 font-medium text-white shadow-sm hover:bg-brand-800"
          >
            Sign in
          </Link>
        </nav>
      </div>
    </header>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { AdminPage } from "@/components/admin/admin-page";
import { Fact } from "@/components/portal-shell";
import { requirePortalViewer } from "@/server/auth/portal-session";

export const metadata: Metadata = { title: "Admin tool" };

const LINKS = [
  { href: "/admin/api-keys", label: "API keys", text: "Create Management and Public API keys for your systems, see when they were last used, revoke them." },
  { href: "/admin/telemedicine-providers", label: "Telemedicine providers", text: "Decide per provider whether doctors may sign its prescriptions without a QES." },
];

export default async function AdminHomePage() {
  const viewer = await requirePortalViewer("ADMIN", "/admin");
  return (
    <AdminPage path="/admin">
      <p className="text-sm text-slate-600">Organisation administration: API access and provider settings.</p>
      <dl className="mt-6 grid gap-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:grid-cols-3">
        <Fact label="Signed in as" value={viewer.displayName} />
        <Fact label="Email" value={viewer.email} />
        <Fact label="Organisation" value={viewer.organisation.displayName} />
      </dl>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2">
        {LINKS.map((link) => (
          <li key={link.href} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
            <Link href={link.href} className="text-base font-semibold text-brand-800 hover:underline">
              {link.label}
            </Link>
            <p className="mt-1 text-sm text-slate-600">{link.text}</p>
          </li>
        ))}
      </ul>
    </AdminPage>
  );
}

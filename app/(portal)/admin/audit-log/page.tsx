import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { AuditLog } from "@/components/admin/audit/audit-log";

export const metadata: Metadata = { title: "Audit log · Admin tool" };

export default function AdminAuditLogPage() {
  return (
    <AdminPage path="/admin/audit-log" title="Audit log">
      <p className="mb-4 text-sm text-slate-600">
        Every change in the organisation — orders, prescriptions, keys, settings, users — with who made it and when. Stock changes are in
        each pharmacy&apos;s stock ledger.
      </p>
      <AuditLog />
    </AdminPage>
  );
}

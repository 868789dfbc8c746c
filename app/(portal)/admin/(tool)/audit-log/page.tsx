import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { AuditLog } from "@/components/admin/audit/audit-log";

export const metadata: Metadata = { title: "Audit log · Admin tool" };

export default function AdminAuditLogPage() {
  return (
    <>
      <PageHeader title="Audit log" />
      <p className="mb-4 text-sm text-slate-600">
        Every change in the organisation — orders, prescriptions, keys, settings, users — with who made it and when. Stock changes are in
        each pharmacy&apos;s stock ledger.
      </p>
      <AuditLog />
    </>
  );
}

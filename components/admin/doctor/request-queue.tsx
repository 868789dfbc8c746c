"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useFormat } from "@/components/ui/format";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { errorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { waitedFor } from "./format";
import { StatusBadge } from "@/components/ui/status-badge";

/** New requests arrive while the doctor works: the queue is read again every half minute. */
const QUEUE_REFRESH_MS = 30_000;

/** The prescription requests waiting for a doctor that this doctor may take, oldest first; each links to its page. */
export function DoctorRequestQueue() {
  const format = useFormat();
  const trpc = useTRPC();
  const queue = useQuery(trpc.doctor.requests.queue.queryOptions(undefined, { refetchInterval: QUEUE_REFRESH_MS }));
  if (queue.isPending) return <LoadingState label="Loading the requests…" />;
  if (queue.isError) return <ErrorState message={errorMessage(queue.error)} onRetry={() => void queue.refetch()} />;
  const { items, total } = queue.data;
  if (items.length === 0) {
    return <EmptyState title="No prescription requests are waiting">New requests appear here as orders arrive; the list refreshes by itself.</EmptyState>;
  }
  const now = Date.now();
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        {total === 1 ? "1 request waits" : `${total} requests wait`} for a doctor, oldest first
        {total > items.length ? ` (the oldest ${items.length} are shown)` : ""}. Requests another doctor has taken are not listed.
      </p>
      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">Prescription requests waiting for a doctor</caption>
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-4 py-3">Patient</th>
              <th scope="col" className="px-4 py-3">Items</th>
              <th scope="col" className="px-4 py-3">Order</th>
              <th scope="col" className="px-4 py-3">Status</th>
              <th scope="col" className="px-4 py-3">Waiting since</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {items.map((request) => (
              <tr key={request.uid} className="align-top">
                <td className="px-4 py-3">
                  <Link href={`/admin/doctor/requests/${request.uid}`} className="font-medium text-brand-800 hover:underline">
                    {request.patient.name}
                  </Link>
                  <div className="text-xs text-slate-500">{request.patient.dateOfBirth ? `born ${request.patient.dateOfBirth}` : "date of birth unknown"}</div>
                </td>
                <td className="px-4 py-3 text-slate-800">
                  <ul>
                    {request.items.map((item, index) => (
                      <li key={index}>
                        {item.quantity} × {item.sku}
                      </li>
                    ))}
                  </ul>
                  {request.withAnamnesis ? <span className="text-xs text-slate-500">with anamnesis</span> : null}
                </td>
                <td className="px-4 py-3 text-slate-700">{request.order?.name ?? "—"}</td>
                <td className="px-4 py-3">
                  <StatusBadge kind="prescription" status={request.status} />
                  {request.assignedToMe ? <div className="mt-1 text-xs text-slate-500">assigned to you</div> : null}
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-700">
                  {format.dateTime(request.createdAt)}
                  <div className="text-xs text-slate-500">{waitedFor(request.createdAt, now)}</div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

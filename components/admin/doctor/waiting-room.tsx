"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useFormat } from "@/components/ui/format";
import { Button } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { errorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { waitedFor } from "./format";

/** Patients join while the doctor works: the room is read again every fifteen seconds. */
const ROOM_REFRESH_MS = 15_000;

/** The waiting room: the patient the doctor holds now, taking the next one, and who waits in line. */
export function DoctorWaitingRoom() {
  const format = useFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const room = useQuery(trpc.doctor.waitingRoom.get.queryOptions(undefined, { refetchInterval: ROOM_REFRESH_MS }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.doctor.waitingRoom.pathKey() });
  const takeNext = useMutation(trpc.doctor.waitingRoom.takeNext.mutationOptions({ onSettled: refresh }));
  const complete = useMutation(trpc.doctor.waitingRoom.complete.mutationOptions({ onSettled: refresh }));

  if (room.isPending) return <LoadingState label="Loading the waiting room…" />;
  if (room.isError) return <ErrorState message={errorMessage(room.error)} onRetry={() => void room.refetch()} />;
  const { current, waiting, total } = room.data;
  const now = Date.now();
  const nobodyForMe = takeNext.isSuccess && takeNext.data === null;

  return (
    <div className="space-y-6">
      <section aria-labelledby="current-patient" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="current-patient" className="text-sm font-semibold text-slate-900">
          Current patient
        </h2>
        {current ? (
          <div className="mt-3 space-y-3">
            <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
              <dt className="text-slate-500">Patient</dt>
              <dd className="font-medium text-slate-900">{current.patient.name}</dd>
              <dt className="text-slate-500">Date of birth</dt>
              <dd className="text-slate-900">{current.patient.dateOfBirth ?? "—"}</dd>
              <dt className="text-slate-500">Reason for the visit</dt>
              <dd className="text-slate-900">{current.visitReason ?? "—"}</dd>
              <dt className="text-slate-500">With you since</dt>
              <dd className="text-slate-900">{format.dateTime(current.allocatedAt)}</dd>
              <dt className="text-slate-500">Video room</dt>
              <dd className="font-mono text-xs text-slate-700">{current.videoRoomId ?? "—"}</dd>
            </dl>
            <Button disabled={complete.isPending} onClick={() => complete.mutate({ queueUid: current.queueUid })}>
              {complete.isPending ? "Completing…" : "Complete consultation"}
            </Button>
          </div>
        ) : (
          <div className="mt-3 space-y-3">
            <p className="text-sm text-slate-600">You are not consulting anyone. Take the next patient in line when you are ready.</p>
            <Button disabled={takeNext.isPending} onClick={() => takeNext.mutate()}>
              {takeNext.isPending ? "Taking…" : "Take next patient"}
            </Button>
            {nobodyForMe ? <Notice tone="warning">Nobody is waiting for you right now.</Notice> : null}
          </div>
        )}
        {takeNext.isError ? <div className="mt-3"><ErrorState message={errorMessage(takeNext.error)} /></div> : null}
        {complete.isError ? <div className="mt-3"><ErrorState message={errorMessage(complete.error)} /></div> : null}
      </section>

      <section aria-labelledby="waiting-list" className="space-y-3">
        <h2 id="waiting-list" className="text-sm font-semibold text-slate-900">
          Waiting ({total})
        </h2>
        {waiting.length === 0 ? (
          <EmptyState title="Nobody is waiting">Patients who join the waiting room appear here; the list refreshes by itself.</EmptyState>
        ) : (
          <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <caption className="sr-only">Patients waiting, in line order</caption>
              <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-3 text-right">Position</th>
                  <th scope="col" className="px-4 py-3">Patient</th>
                  <th scope="col" className="px-4 py-3">Reason for the visit</th>
                  <th scope="col" className="px-4 py-3">Waiting since</th>
                  <th scope="col" className="px-4 py-3">Preferred doctor</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {waiting.map((entry) => (
                  <tr key={entry.queueUid}>
                    <td className="px-4 py-3 text-right tabular-nums text-slate-900">{entry.position}</td>
                    <td className="px-4 py-3 text-slate-900">{entry.patient.name}</td>
                    <td className="px-4 py-3 text-slate-700">{entry.visitReason ?? "—"}</td>
                    <td className="px-4 py-3 whitespace-nowrap text-slate-700">
                      {format.dateTime(entry.waitingSince)}
                      <div className="text-xs text-slate-500">{waitedFor(entry.waitingSince, now)}</div>
                    </td>
                    <td className="px-4 py-3 text-slate-700">
                      {entry.preferredDoctor ?? "anyone"}
                      {entry.takeableByMe ? null : <div className="text-xs text-slate-500">waits for their doctor for now</div>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}

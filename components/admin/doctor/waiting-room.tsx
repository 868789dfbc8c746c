"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useFormat } from "@/components/ui/format";
import { Button } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, ErrorState, Notice } from "@/components/ui/states";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { useDay, useWaitedFor } from "./format";

/** Patients join while the doctor works: the room is read again every fifteen seconds. */
const ROOM_REFRESH_MS = 15_000;

type Waiting = {
  queueUid: string;
  position: number;
  patient: { name: string };
  visitReason: string | null;
  waitingSince: number;
  preferredDoctor: string | null;
  takeableByMe: boolean;
};

/** The waiting room: the patient the doctor holds now, taking the next one, and who waits in line. */
export function DoctorWaitingRoom() {
  const errorMessage = useErrorMessage();
  const t = useTranslations("doctor.waitingRoom");
  const format = useFormat();
  const day = useDay();
  const waitedFor = useWaitedFor();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const room = useQuery(trpc.doctor.waitingRoom.get.queryOptions(undefined, { refetchInterval: ROOM_REFRESH_MS }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.doctor.waitingRoom.pathKey() });
  const takeNext = useMutation(trpc.doctor.waitingRoom.takeNext.mutationOptions({ onSettled: refresh }));
  const complete = useMutation(trpc.doctor.waitingRoom.complete.mutationOptions({ onSettled: refresh }));
  const now = Date.now();
  const nobodyForMe = takeNext.isSuccess && takeNext.data === null;

  const columns: Column<Waiting>[] = [
    { header: t("patient"), key: true, className: "text-slate-900", cell: (entry) => entry.patient.name },
    { header: t("position"), className: "md:text-right tabular-nums text-slate-900", cell: (entry) => format.number(entry.position) },
    { header: t("reason"), className: "text-slate-700", cell: (entry) => entry.visitReason ?? "—" },
    {
      header: t("waitingSince"),
      className: "md:whitespace-nowrap text-slate-700",
      cell: (entry) => (
        <>
          {format.dateTime(entry.waitingSince)}
          <div className="text-xs text-slate-500">{waitedFor(entry.waitingSince, now)}</div>
        </>
      ),
    },
    {
      header: t("preferredDoctor"),
      className: "text-slate-700",
      cell: (entry) => (
        <>
          {entry.preferredDoctor ?? t("anyone")}
          {entry.takeableByMe ? null : <div className="text-xs text-slate-500">{t("waitsForTheirDoctor")}</div>}
        </>
      ),
    },
  ];

  return (
    <QueryView query={room} loadingLabel={t("loading")}>
      {({ current, waiting, total }) => (
        <div className="space-y-6">
          <section aria-labelledby="current-patient" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
            <h2 id="current-patient" className="text-sm font-semibold text-slate-900">
              {t("current")}
            </h2>
            {current ? (
              <div className="mt-3 space-y-3">
                <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
                  <dt className="text-slate-500">{t("patient")}</dt>
                  <dd className="font-medium text-slate-900">{current.patient.name}</dd>
                  <dt className="text-slate-500">{t("dateOfBirth")}</dt>
                  <dd className="text-slate-900">{day(current.patient.dateOfBirth)}</dd>
                  <dt className="text-slate-500">{t("reason")}</dt>
                  <dd className="text-slate-900">{current.visitReason ?? "—"}</dd>
                  <dt className="text-slate-500">{t("withYouSince")}</dt>
                  <dd className="text-slate-900">{format.dateTime(current.allocatedAt)}</dd>
                  <dt className="text-slate-500">{t("videoRoom")}</dt>
                  <dd className="font-mono text-xs text-slate-700 wrap-anywhere">{current.videoRoomId ?? "—"}</dd>
                </dl>
                <Button disabled={complete.isPending} onClick={() => complete.mutate({ queueUid: current.queueUid })}>
                  {complete.isPending ? t("completing") : t("complete")}
                </Button>
              </div>
            ) : (
              <div className="mt-3 space-y-3">
                <p className="text-sm text-slate-600">{t("notConsulting")}</p>
                <Button disabled={takeNext.isPending} onClick={() => takeNext.mutate()}>
                  {takeNext.isPending ? t("taking") : t("takeNext")}
                </Button>
                {nobodyForMe ? <Notice tone="warning">{t("nobodyForYou")}</Notice> : null}
              </div>
            )}
            {takeNext.isError ? (
              <div className="mt-3">
                <ErrorState message={errorMessage(takeNext.error)} />
              </div>
            ) : null}
            {complete.isError ? (
              <div className="mt-3">
                <ErrorState message={errorMessage(complete.error)} />
              </div>
            ) : null}
          </section>

          <section aria-labelledby="waiting-list" className="space-y-3">
            <h2 id="waiting-list" className="text-sm font-semibold text-slate-900">
              {t("waiting", { total })}
            </h2>
            <DataTable
              label={t("waitingLabel")}
              columns={columns}
              rows={waiting as Waiting[]}
              rowKey={(entry) => entry.queueUid}
              rowClassName={() => "align-top"}
              empty={<EmptyState title={t("emptyTitle")}>{t("emptyHint")}</EmptyState>}
            />
          </section>
        </div>
      )}
    </QueryView>
  );
}

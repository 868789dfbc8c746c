"use client";

import type { inferRouterOutputs } from "@trpc/server";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button, SecretBox } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, ErrorState, Notice } from "@/components/ui/states";
import { useFormat } from "@/components/ui/format";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { StatusBadge } from "@/components/ui/status-badge";
import type { AppRouter } from "@/server/trpc/router";
import { AddUserForm, type LinkShown } from "./add-user-form";

type User = inferRouterOutputs<AppRouter>["admin"]["users"]["list"][number];

/** The organisation's users: add (invite or with a password), deactivate, reactivate, reset a password. */
export function Users() {
  const t = useTranslations("admin.people");
  const [shown, setShown] = useState<{ kind: "invitation" | "reset"; link: string; who: string } | null>(null);
  return (
    <div className="space-y-8">
      {shown ? (
        <SecretBox
          label={shown.kind === "invitation" ? t("invitationLink") : t("resetLink")}
          value={shown.link}
          note={t("linkNote", { who: shown.who })}
        />
      ) : null}
      <UserList onLink={setShown} />
      <AddUserForm onLink={setShown} />
    </div>
  );
}

function UserList({ onLink }: { onLink: LinkShown }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("admin.people");
  const format = useFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.admin.users.list.queryOptions());
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.users.pathKey() });
  const deactivate = useMutation(trpc.admin.users.deactivate.mutationOptions({ onSuccess: refresh }));
  const reactivate = useMutation(trpc.admin.users.reactivate.mutationOptions({ onSuccess: refresh }));
  const reset = useMutation(trpc.admin.users.issuePasswordReset.mutationOptions());
  const failure = deactivate.error ?? reactivate.error ?? reset.error;

  const worksFor = (user: User) =>
    user.pharmacy ? user.pharmacy.name : user.pharmacyGroup ? t("group", { name: user.pharmacyGroup.name }) : user.doctor ? user.doctor.name : t("theOrganisation");

  const columns: Column<User>[] = [
    {
      header: t("columns.name"),
      key: true,
      cell: (user) => (
        <>
          <p className="font-medium text-slate-900">{user.name}</p>
          <p className="text-xs font-normal text-slate-500">{user.email}</p>
        </>
      ),
    },
    { header: t("columns.role"), cell: (user) => t(`roles.${user.role}`) },
    {
      header: t("columns.worksFor"),
      // A doctor's prescriber details (what their prescriptions name) are edited on the doctor's page.
      cell: (user) =>
        user.doctor ? (
          <Link prefetch={false} href={`/admin/doctors/${encodeURIComponent(user.doctor.uid)}`} className="text-brand-700 hover:underline">
            {user.doctor.name}
          </Link>
        ) : (
          worksFor(user)
        ),
    },
    {
      header: t("columns.status"),
      cell: (user) => (
        <>
          <StatusBadge kind="user" status={user.status} />
          {user.deactivatedAt ? <p className="mt-1 text-xs text-slate-500">{t("since", { when: format.dateTime(user.deactivatedAt) })}</p> : null}
        </>
      ),
    },
    { header: t("columns.added"), className: "md:whitespace-nowrap", cell: (user) => format.dateTime(user.createdAt) },
    {
      header: t("columns.actions"),
      headerHidden: true,
      cell: (user) => (
        <div className="flex flex-wrap gap-2 md:justify-end">
          {user.status === "deactivated" ? (
            <Button
              tone="secondary"
              aria-label={t("reactivateLabel", { email: user.email })}
              disabled={reactivate.isPending}
              onClick={() => reactivate.mutate({ userUid: user.uid }, { onSuccess: () => setNotice(t("reactivated", { email: user.email })) })}
            >
              {t("reactivate")}
            </Button>
          ) : (
            <>
              <Button
                tone="secondary"
                aria-label={t("resetLabel", { email: user.email })}
                disabled={reset.isPending}
                onClick={() =>
                  reset.mutate(
                    { userUid: user.uid },
                    {
                      // E-mailed (a mailer is configured): the admin never sees the link.
                      onSuccess: (r) => {
                        onLink(r.resetLink ? { kind: "reset", link: r.resetLink, who: user.email } : null);
                        setNotice(r.resetLink ? null : t("resetMailed", { email: user.email }));
                        if (r.mailedTo) void queryClient.invalidateQueries({ queryKey: trpc.admin.mail.pathKey() });
                      },
                    },
                  )
                }
              >
                {t("reset")}
              </Button>
              {user.isYou ? null : (
                <ConfirmButton
                  buttonLabel={t("deactivateLabel", { email: user.email })}
                  title={t("deactivateTitle", { email: user.email })}
                  confirmLabel={t("confirmDeactivate")}
                  pendingLabel={t("deactivating")}
                  onConfirm={async () => {
                    await deactivate.mutateAsync({ userUid: user.uid });
                    setNotice(t("deactivated", { email: user.email }));
                  }}
                  consequence={<p>{t("deactivateConsequence")}</p>}
                >
                  {t("deactivate")}
                </ConfirmButton>
              )}
            </>
          )}
        </div>
      ),
    },
  ];

  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading" className="text-lg font-semibold text-slate-900">
        {t("title")}
      </h2>
      <div className="mt-3 space-y-3">
        {notice ? <Notice>{notice}</Notice> : null}
        {failure ? <ErrorState message={errorMessage(failure)} /> : null}
        <QueryView
          query={users}
          loadingLabel={t("loading")}
          isEmpty={(data) => data.length === 0}
          empty={<EmptyState title={t("emptyTitle")}>{t("emptyHint")}</EmptyState>}
        >
          {(data) => <DataTable label={t("title")} columns={columns} rows={data} rowKey={(user) => user.uid} />}
        </QueryView>
        <p className="text-xs text-slate-500">{t("deactivateNote")}</p>
      </div>
    </section>
  );
}

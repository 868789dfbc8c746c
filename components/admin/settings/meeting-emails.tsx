"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { FormError, SubmitButton, submitWith, useZodForm } from "@/components/ui/form";
import { QueryView } from "@/components/ui/query-view";
import { Notice } from "@/components/ui/states";
import { useTRPC } from "@/components/trpc/react";
import { MEETING_EMAIL_RECIPIENTS, type MeetingEmailRecipient } from "@/server/domain/mail/kinds";
import { changeMeetingEmailsInput } from "@/server/trpc/routers/admin-mail.schemas";
import { cardClass, SettingsSection } from "./section";

/** The setting "meeting e-mails": who is written to when an appointment is confirmed, cancelled or rescheduled (none: off). */
export function MeetingEmails() {
  const t = useTranslations("admin.settings.meetingEmails");
  const trpc = useTRPC();
  const setting = useQuery(trpc.admin.mail.meetingEmails.queryOptions());
  return (
    <SettingsSection id="meeting-emails" title={t("title")} description={t("description")}>
      <QueryView query={setting} loadingLabel={t("loading")}>
        {(data) => (
          <div className={`${cardClass} space-y-4`}>
            {data.mailerConfigured ? null : (
              <Notice tone="warning">
                {t.rich("noMailer", {
                  link: (chunks) => (
                    <Link prefetch={false} href="/admin/email" className="font-medium underline">
                      {chunks}
                    </Link>
                  ),
                })}
              </Notice>
            )}
            <MeetingEmailsForm recipients={data.recipients} />
          </div>
        )}
      </QueryView>
    </SettingsSection>
  );
}

function MeetingEmailsForm({ recipients }: { recipients: MeetingEmailRecipient[] }) {
  const t = useTranslations("admin.settings.meetingEmails");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(changeMeetingEmailsInput, { recipients });
  const [saved, setSaved] = useState(false);
  const change = useMutation(trpc.admin.mail.changeMeetingEmails.mutationOptions());
  const submit = submitWith(form, change.mutateAsync, async (result) => {
    setSaved(true);
    form.reset(result);
    await queryClient.invalidateQueries({ queryKey: trpc.admin.mail.meetingEmails.pathKey() });
  });
  return (
    <form onSubmit={submit} noValidate aria-label={t("title")} className="space-y-4">
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">{t("legend")}</legend>
        <div className="mt-2 space-y-2">
          {MEETING_EMAIL_RECIPIENTS.map((recipient) => (
            <label key={recipient} className="flex items-start gap-3 text-sm text-slate-900">
              <input
                type="checkbox"
                value={recipient}
                {...form.register("recipients", { onChange: () => setSaved(false) })}
                className="mt-0.5 size-4 rounded border-slate-300 text-brand-700 focus:ring-brand-100"
              />
              <span>
                {t(`recipients.${recipient}`)}
                <span className="block text-xs text-slate-500">{t(`hints.${recipient}`)}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <FormError form={form} />
      {saved ? <Notice>{t("saved")}</Notice> : null}
      <SubmitButton form={form} tone="secondary">
        {t("save")}
      </SubmitButton>
    </form>
  );
}

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button, SecretBox, SelectField, TextField } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { useFormat } from "@/components/ui/format";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { StatusBadge } from "@/components/ui/status-badge";
import { PASSWORD_MIN_LENGTH } from "@/server/auth/password-policy";
import type { AddUserInput } from "@/server/trpc/routers/admin-people.schemas";

const ROLE_NAMES = { ADMIN: "Admin", DOCTOR: "Doctor", PHARMACIST: "Pharmacist" } as const;
type Role = keyof typeof ROLE_NAMES;

/** The organisation's users: add (invite or with a password), deactivate, reactivate, reset a password. */
export function Users() {
  const [shown, setShown] = useState<{ label: string; link: string; who: string } | null>(null);
  return (
    <div className="space-y-8">
      {shown ? (
        <SecretBox
          label={shown.label}
          value={shown.link}
          note={`Pass this link on to ${shown.who} (there is no e-mail from us). Shown only this once; it works once and for 7 days.`}
        />
      ) : null}
      <UserList onLink={setShown} />
      <AddUserForm onLink={setShown} />
    </div>
  );
}

type LinkShown = (shown: { label: string; link: string; who: string } | null) => void;

function UserList({ onLink }: { onLink: LinkShown }) {
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

  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading" className="text-lg font-semibold text-slate-900">
        Users
      </h2>
      <div className="mt-3 space-y-3">
        {notice ? <Notice>{notice}</Notice> : null}
        {failure ? <ErrorState message={errorMessage(failure)} /> : null}
        {users.isPending ? (
          <LoadingState label="Loading users…" />
        ) : users.isError ? (
          <ErrorState message={errorMessage(users.error)} onRetry={() => users.refetch()} />
        ) : users.data.length === 0 ? (
          <EmptyState title="No users yet">Invite the first one below.</EmptyState>
        ) : (
          <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-3">Name</th>
                  <th scope="col" className="px-4 py-3">Role</th>
                  <th scope="col" className="px-4 py-3">Works for</th>
                  <th scope="col" className="px-4 py-3">Status</th>
                  <th scope="col" className="px-4 py-3">Added</th>
                  <th scope="col" className="px-4 py-3"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {users.data.map((user) => (
                  <tr key={user.uid} className="align-top">
                    <td className="px-4 py-3">
                      <p className="font-medium text-slate-900">{user.name}</p>
                      <p className="text-xs text-slate-500">{user.email}</p>
                    </td>
                    <td className="px-4 py-3 text-slate-700">{ROLE_NAMES[user.role]}</td>
                    <td className="px-4 py-3 text-slate-700">
                      {user.pharmacy
                        ? user.pharmacy.name
                        : user.pharmacyGroup
                          ? `Group: ${user.pharmacyGroup.name}`
                          : user.doctor
                            ? user.doctor.name
                            : "The organisation"}
                    </td>
                    <td className="px-4 py-3">
                      <StatusBadge kind="user" status={user.status} />
                      {user.deactivatedAt ? <p className="mt-1 text-xs text-slate-500">since {format.dateTime(user.deactivatedAt)}</p> : null}
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-700">{format.dateTime(user.createdAt)}</td>
                    <td className="px-4 py-3">
                      <div className="flex flex-wrap justify-end gap-2">
                        {user.status === "deactivated" ? (
                          <Button
                            tone="secondary"
                            aria-label={`Reactivate ${user.email}`}
                            disabled={reactivate.isPending}
                            onClick={() => reactivate.mutate({ userUid: user.uid }, { onSuccess: () => setNotice(`${user.email} can sign in again.`) })}
                          >
                            Reactivate
                          </Button>
                        ) : (
                          <>
                            <Button
                              tone="secondary"
                              aria-label={`Reset password of ${user.email}`}
                              disabled={reset.isPending}
                              onClick={() =>
                                reset.mutate(
                                  { userUid: user.uid },
                                  { onSuccess: (r) => onLink({ label: "Password reset link", link: r.resetLink, who: user.email }) },
                                )
                              }
                            >
                              Reset password
                            </Button>
                            {user.isYou ? null : (
                              <ConfirmButton
                                buttonLabel={`Deactivate ${user.email}`}
                                title={`Deactivate ${user.email}?`}
                                confirmLabel="Confirm deactivate"
                                pendingLabel="Deactivating…"
                                onConfirm={async () => {
                                  await deactivate.mutateAsync({ userUid: user.uid });
                                  setNotice(`${user.email} is deactivated: their sessions have ended.`);
                                }}
                                consequence={<p>Their sessions end at once, they cannot sign in, and their unused invitation or password links stop working. The API keys they created keep working. You can reactivate them later.</p>}
                              >
                                Deactivate
                              </ConfirmButton>
                            )}
                          </>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="text-xs text-slate-500">
          Deactivating ends the user&apos;s sessions at once. You cannot deactivate yourself, nor the last active admin.
        </p>
      </div>
    </section>
  );
}

function AddUserForm({ onLink }: { onLink: LinkShown }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const choices = useQuery(trpc.admin.users.bindingChoices.queryOptions());
  const [role, setRole] = useState<Role>("PHARMACIST");
  const [mode, setMode] = useState<"invite" | "password">("invite");
  const [doctorChoice, setDoctorChoice] = useState("new");
  const [formKey, setFormKey] = useState(0);
  const [added, setAdded] = useState<string | null>(null);
  const add = useMutation(
    trpc.admin.users.add.mutationOptions({
      onSuccess: async (result) => {
        setAdded(result.invitationLink ? `${result.email} is invited.` : `${result.email} can sign in with the password you set.`);
        onLink(result.invitationLink ? { label: "Invitation link", link: result.invitationLink, who: result.email } : null);
        setFormKey((k) => k + 1);
        await queryClient.invalidateQueries({ queryKey: trpc.admin.users.pathKey() });
      },
    }),
  );
  const errorsOf = (field: string) => fieldErrors(add.error, field);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAdded(null);
    const form = new FormData(event.currentTarget);
    const value = (name: string) => String(form.get(name) ?? "");
    const input: AddUserInput = { email: value("email"), name: value("name"), role };
    if (role === "PHARMACIST") {
      const [kind, uid] = value("place").split(":");
      if (kind === "pharmacy") input.pharmacyUid = uid;
      if (kind === "group") input.pharmacyGroupUid = uid;
    }
    if (role === "DOCTOR") {
      if (doctorChoice !== "new") input.doctorUid = doctorChoice;
      else {
        input.doctorName = value("doctorName");
        input.doctorEmail = value("doctorEmail");
        input.doctorCanSignQes = form.get("doctorCanSignQes") === "on";
      }
    }
    if (mode === "password") input.password = value("password");
    add.mutate(input);
  }

  return (
    <section aria-labelledby="add-user-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="add-user-heading" className="text-lg font-semibold text-slate-900">
        Add a user
      </h2>
      {choices.isPending ? (
        <div className="mt-4">
          <LoadingState label="Loading pharmacies and doctors…" />
        </div>
      ) : choices.isError ? (
        <div className="mt-4">
          <ErrorState message={errorMessage(choices.error)} onRetry={() => choices.refetch()} />
        </div>
      ) : (
        <form key={formKey} method="post" onSubmit={onSubmit} className="mt-4 grid gap-4 sm:grid-cols-2" noValidate>
          <TextField label="E-mail" name="email" type="email" autoComplete="off" required errors={errorsOf("email")} />
          <TextField label="Name" name="name" required errors={errorsOf("name")} />
          <SelectField label="Role" name="role" value={role} onChange={(e) => setRole(e.target.value as Role)} errors={errorsOf("role")}>
            <option value="PHARMACIST">Pharmacist</option>
            <option value="DOCTOR">Doctor</option>
            <option value="ADMIN">Admin</option>
          </SelectField>
          {role === "PHARMACIST" ? (
            <SelectField label="Pharmacy or group" name="place" defaultValue="" errors={errorsOf("pharmacyUid") ?? errorsOf("pharmacyGroupUid")}>
              <option value="" disabled>
                Choose one…
              </option>
              <optgroup label="Pharmacies">
                {choices.data.pharmacies.map((p) => (
                  <option key={p.uid} value={`pharmacy:${p.uid}`}>
                    {p.name}
                  </option>
                ))}
              </optgroup>
              {choices.data.groups.length > 0 ? (
                <optgroup label="Pharmacy groups (every pharmacy of the group)">
                  {choices.data.groups.map((g) => (
                    <option key={g.uid} value={`group:${g.uid}`}>
                      {g.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </SelectField>
          ) : role === "DOCTOR" ? (
            <SelectField label="Doctor" name="doctor" value={doctorChoice} onChange={(e) => setDoctorChoice(e.target.value)} errors={errorsOf("doctorUid")}>
              <option value="new">A new doctor…</option>
              {choices.data.doctors.map((d) => (
                <option key={d.uid} value={d.uid}>
                  {d.name}
                  {d.email ? ` (${d.email})` : ""}
                </option>
              ))}
            </SelectField>
          ) : (
            <p className="self-end text-sm text-slate-500">Admins manage the whole organisation.</p>
          )}
          {role === "DOCTOR" && doctorChoice === "new" ? (
            <>
              <TextField label="Doctor's name" name="doctorName" errors={errorsOf("doctorName")} hint="As it appears on prescriptions." />
              <TextField label="Doctor's e-mail" name="doctorEmail" type="email" errors={errorsOf("doctorEmail")} />
              <label className="flex items-center gap-2 text-sm text-slate-700 sm:col-span-2">
                <input type="checkbox" name="doctorCanSignQes" className="size-4 rounded border-slate-300" />
                Can sign QES
              </label>
            </>
          ) : null}
          <fieldset className="sm:col-span-2">
            <legend className="text-sm font-medium text-slate-700">Password</legend>
            <div className="mt-2 flex flex-wrap gap-6 text-sm text-slate-700">
              <label className="flex items-center gap-2">
                <input type="radio" name="mode" checked={mode === "invite"} onChange={() => setMode("invite")} />
                Invite: they choose a password through a link
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name="mode" checked={mode === "password"} onChange={() => setMode("password")} />
                Set an initial password
              </label>
            </div>
          </fieldset>
          {mode === "password" ? (
            <TextField
              label="Initial password"
              name="password"
              type="password"
              autoComplete="new-password"
              errors={errorsOf("password")}
              hint={`At least ${PASSWORD_MIN_LENGTH} characters. Tell it to the user safely.`}
            />
          ) : null}
          <div className="flex items-center gap-3 sm:col-span-2">
            <Button type="submit" disabled={add.isPending}>
              {add.isPending ? "Saving…" : mode === "invite" ? "Invite user" : "Create user"}
            </Button>
            {added ? <Notice>{added}</Notice> : null}
          </div>
          {add.error && add.error.data?.code !== "BAD_REQUEST" ? (
            <div className="sm:col-span-2">
              <ErrorState message={errorMessage(add.error)} />
            </div>
          ) : null}
        </form>
      )}
    </section>
  );
}

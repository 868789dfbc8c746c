"use client";

import { useState, type FormEvent } from "react";
import { Button, SelectField, TextField } from "@/components/ui/controls";
import { ErrorState } from "@/components/ui/states";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import type { PharmacyFieldsInput } from "@/server/trpc/routers/admin-pharmacies.schemas";

/** A pharmacy as the form starts from (the edit page's pharmacy, or nothing for a new one). */
export type PharmacyFormValues = {
  displayName: string;
  email: string | null;
  address: { line1: string; line2?: string; postal_code: string; city: string; country: string } | null;
  locationId: string | null;
  group: { uid: string } | null;
  connector: { url: string; headerNames: string[]; timeoutMs: number } | null;
};

type Group = { uid: string; displayName: string };

/** "Name: value" per line → headers; null when a line does not fit. */
function parseHeaders(text: string): Record<string, string> | null {
  const headers: Record<string, string> = {};
  for (const line of text.split("\n").map((l) => l.trim()).filter(Boolean)) {
    const colon = line.indexOf(":");
    if (colon <= 0) return null;
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * A pharmacy's fields: name, e-mail, postal address, group, location id and the pharmacy-system
 * connector. Stored header values are never shown: left empty, an edit keeps them.
 */
export function PharmacyForm({
  initial,
  groups,
  submitLabel,
  pending,
  error,
  onSubmit,
}: {
  initial: PharmacyFormValues | null;
  groups: Group[];
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (fields: PharmacyFieldsInput) => void;
}) {
  const [headerError, setHeaderError] = useState<string | null>(null);
  const errorsOf = (field: string) => fieldErrors(error, field);
  const storedHeaders = initial?.connector?.headerNames ?? [];

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => String(form.get(name) ?? "").trim();
    const addressParts = ["line1", "line2", "postal_code", "city", "country"].map(value);
    const url = value("connectorUrl");
    let headers: Record<string, string> | undefined;
    if (value("connectorHeaders")) {
      const parsed = parseHeaders(value("connectorHeaders"));
      if (!parsed) return setHeaderError("Write one header per line as Name: value.");
      headers = parsed;
    } else if (form.get("removeHeaders") === "on") headers = {};
    setHeaderError(null);
    const timeout = value("connectorTimeout");
    onSubmit({
      displayName: value("displayName"),
      email: value("email"),
      address: addressParts.some(Boolean)
        ? { line1: value("line1"), line2: value("line2"), postal_code: value("postal_code"), city: value("city"), country: value("country") }
        : null,
      groupUid: value("group") || null,
      locationId: value("locationId"),
      systemConnector: url ? { url, headers, ...(timeout ? { timeoutMs: Number(timeout) } : {}) } : null,
    });
  }

  return (
    <form onSubmit={submit} className="space-y-6" noValidate>
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">Pharmacy</legend>
        <TextField label="Display name" name="displayName" defaultValue={initial?.displayName} required errors={errorsOf("displayName")} />
        <TextField label="E-mail" name="email" type="email" defaultValue={initial?.email ?? ""} errors={errorsOf("email")} />
        <SelectField label="Group" name="group" defaultValue={initial?.group?.uid ?? ""} errors={errorsOf("groupUid")}>
          <option value="">No group</option>
          {groups.map((g) => (
            <option key={g.uid} value={g.uid}>
              {g.displayName}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Location id"
          name="locationId"
          defaultValue={initial?.locationId ?? ""}
          errors={errorsOf("locationId")}
          hint="Order intake's location_id routes orders here. Unique within the organisation."
        />
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">Address</legend>
        <TextField label="Address line 1" name="line1" defaultValue={initial?.address?.line1 ?? ""} errors={errorsOf("address.line1")} />
        <TextField label="Address line 2" name="line2" defaultValue={initial?.address?.line2 ?? ""} errors={errorsOf("address.line2")} />
        <TextField label="Postal code" name="postal_code" defaultValue={initial?.address?.postal_code ?? ""} errors={errorsOf("address.postal_code")} />
        <TextField label="City" name="city" defaultValue={initial?.address?.city ?? ""} errors={errorsOf("address.city")} />
        <TextField
          label="Country"
          name="country"
          defaultValue={initial?.address?.country ?? ""}
          maxLength={2}
          hint="2-letter ISO code, e.g. DE."
          errors={errorsOf("address.country")}
        />
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">Pharmacy system connector</legend>
        <p className="text-xs text-slate-500 sm:col-span-2">
          The automatic status check asks this system about open orders (GET {"{URL}"}/orders/{"{uid}"}). Leave the URL empty when the pharmacy has no
          connected system.
        </p>
        <TextField label="Connector URL" name="connectorUrl" type="url" defaultValue={initial?.connector?.url ?? ""} errors={errorsOf("systemConnector.url")} />
        <TextField
          label="Timeout (ms)"
          name="connectorTimeout"
          type="number"
          min={100}
          max={60000}
          defaultValue={initial?.connector?.timeoutMs ?? ""}
          errors={errorsOf("systemConnector.timeoutMs")}
          hint="100 to 60000; 10000 when empty."
        />
        <div className="sm:col-span-2">
          <label htmlFor="connector-headers" className="block text-sm font-medium text-slate-700">
            Connector headers
          </label>
          <textarea
            id="connector-headers"
            name="connectorHeaders"
            rows={2}
            placeholder="Authorization: Bearer …"
            aria-describedby="connector-headers-hint"
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100"
          />
          <p id="connector-headers-hint" className="mt-1 text-xs text-slate-500">
            One “Name: value” per line, sent with every request.{" "}
            {storedHeaders.length > 0 ? `Stored: ${storedHeaders.join(", ")} (values hidden); leave empty to keep them.` : null}
          </p>
          {headerError || errorsOf("systemConnector.headers") ? (
            <p className="mt-1 text-xs text-red-700">{headerError ?? errorsOf("systemConnector.headers")?.join(" ")}</p>
          ) : null}
          {storedHeaders.length > 0 ? (
            <label className="mt-2 flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" name="removeHeaders" className="size-4 rounded border-slate-300" />
              Remove the stored headers
            </label>
          ) : null}
        </div>
      </fieldset>
      {error && !(error as { data?: { fieldErrors?: unknown } }).data?.fieldErrors ? <ErrorState message={errorMessage(error)} /> : null}
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : submitLabel}
      </Button>
    </form>
  );
}

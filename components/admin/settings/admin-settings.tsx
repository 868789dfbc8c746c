"use client";

import { HiddenSkuTypes } from "./hidden-sku-types";
import { PatientTokenSecrets } from "./patient-token-secrets";
import { ProfileFields } from "./profile-fields";
import { WalletPassTemplates } from "./wallet-pass-templates";

const AREAS = [
  { id: "profile-fields", label: "Patient profile fields" },
  { id: "hidden-sku-types", label: "Hidden SKU type" },
  { id: "patient-token-secrets", label: "Patient token secrets" },
  { id: "wallet-pass-templates", label: "Wallet pass templates" },
];

/** The organisation's settings, one section each. */
export function AdminSettings() {
  return (
    <div className="space-y-12">
      <nav aria-label="Settings sections" className="flex flex-wrap gap-2">
        {AREAS.map((a) => (
          <a key={a.id} href={`#${a.id}`} className="rounded-full border border-slate-300 bg-white px-3 py-1 text-sm text-slate-700 hover:bg-slate-50">
            {a.label}
          </a>
        ))}
      </nav>
      <ProfileFields />
      <HiddenSkuTypes />
      <PatientTokenSecrets />
      <WalletPassTemplates />
    </div>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { HiddenSkuTypes } from "./hidden-sku-types";
import { MeetingEmails } from "./meeting-emails";
import { PatientTokenSecrets } from "./patient-token-secrets";
import { PaymentProvider } from "./payment-provider";
import { PrescriptionLanguage } from "./prescription-language";
import { ProfileFields } from "./profile-fields";
import { TrustService } from "./trust-service";
import { WalletPassTemplates } from "./wallet-pass-templates";

const AREAS = [
  { id: "profile-fields", label: "profileFields" },
  { id: "hidden-sku-types", label: "hiddenSku" },
  { id: "patient-token-secrets", label: "tokenSecrets" },
  { id: "wallet-pass-templates", label: "walletTemplates" },
  { id: "meeting-emails", label: "meetingEmails" },
  { id: "prescription-language", label: "prescriptionLanguage" },
  { id: "payment-provider", label: "paymentProvider" },
  { id: "trust-service", label: "trustService" },
] as const;

/** The organisation's settings, one section each. */
export function AdminSettings() {
  const t = useTranslations("admin.settings");
  return (
    <div className="space-y-12">
      <nav aria-label={t("sectionsNav")} className="flex flex-wrap gap-2">
        {AREAS.map((a) => (
          <a key={a.id} href={`#${a.id}`} className="rounded-full border border-slate-300 bg-white px-3 py-1 text-sm text-slate-700 hover:bg-slate-50">
            {t(`${a.label}.title`)}
          </a>
        ))}
      </nav>
      <ProfileFields />
      <HiddenSkuTypes />
      <PatientTokenSecrets />
      <WalletPassTemplates />
      <MeetingEmails />
      <PrescriptionLanguage />
      <PaymentProvider />
      <TrustService />
    </div>
  );
}

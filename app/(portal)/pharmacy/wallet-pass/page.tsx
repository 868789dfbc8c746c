import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { WalletPassCheck } from "@/components/pharmacy/wallet-pass/wallet-pass-check";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pharmacy.pages");
  return { title: t("walletPass.meta") };
}

export default async function PharmacyWalletPassPage() {
  const t = await getTranslations("pharmacy.pages");
  return (
    <>
      <PageHeader title={t("walletPass.title")} description={t("walletPass.intro")} />
      <WalletPassCheck />
    </>
  );
}

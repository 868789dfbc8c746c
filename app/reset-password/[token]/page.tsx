import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PasswordLinkPage } from "@/components/admin/people/password-link-page";

// The token is in the URL: no Referer carries it to another site.
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("passwordLink"))("metaReset"), referrer: "no-referrer", robots: { index: false } };
}

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  return <PasswordLinkPage token={(await params).token} purpose="PASSWORD_RESET" />;
}

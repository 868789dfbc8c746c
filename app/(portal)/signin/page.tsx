import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { LanguageSwitch } from "@/components/language-switch";
import { SignInForm } from "@/components/sign-in-form";
import { SiteHeader } from "@/components/site-header";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("auth"))("title") };
}

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const t = await getTranslations("auth");
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  return (
    <>
      <SiteHeader />
      <main className="mx-auto flex max-w-5xl justify-center px-6 py-16">
        <div className="w-full max-w-sm">
          <div className="flex items-start justify-between gap-4">
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t("title")}</h1>
            <LanguageSwitch />
          </div>
          <p className="mt-2 text-sm text-slate-600">{t("intro")}</p>
          <div className="mt-8 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
            <SignInForm callbackUrl={first(params.callbackUrl)} errorCode={first(params.error)} />
          </div>
        </div>
      </main>
    </>
  );
}

import type { Metadata } from "next";
import { NextIntlClientProvider } from "next-intl";
import { getLocale } from "next-intl/server";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { HydrationMark } from "@/components/ui/hydration-mark";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Rx Fulfilment", template: "%s · Rx Fulfilment" },
  description: "Prescription and pharmacy fulfilment: REST APIs for integrators and a pharmacy portal.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: its scripts carry the nonce of its Content-Security-Policy (proxy.ts).
  await connection();
  return (
    <html lang={await getLocale()}>
      <body className="min-h-screen font-sans">
        {/* Passes the request's language and messages (i18n/request.ts) on to client components. */}
        <NextIntlClientProvider>
          {children}
          <HydrationMark />
        </NextIntlClientProvider>
      </body>
    </html>
  );
}

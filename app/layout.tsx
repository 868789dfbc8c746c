import type { Metadata } from "next";
import { NextIntlClientProvider } from "next-intl";
import { getLocale } from "next-intl/server";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { HydrationMark } from "@/components/ui/hydration-mark";
import { sharedClientMessages } from "@/i18n/client-messages";
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
        {/* Passes the request's language and the messages public pages word in the browser on to client
            components; each portal's layout adds its own (i18n/client-messages.ts). */}
        <NextIntlClientProvider messages={await sharedClientMessages()}>
          {children}
          <HydrationMark />
        </NextIntlClientProvider>
      </body>
    </html>
  );
}

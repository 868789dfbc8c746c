import type { Metadata } from "next";
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
    <html lang="en">
      <body className="min-h-screen font-sans">
        {children}
        <HydrationMark />
      </body>
    </html>
  );
}

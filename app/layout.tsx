import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Rx Fulfilment", template: "%s · Rx Fulfilment" },
  description: "Prescription and pharmacy fulfilment: REST APIs for integrators and a pharmacy portal.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}

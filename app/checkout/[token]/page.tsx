import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { getLocale } from "next-intl/server";
import { Brand } from "@/components/brand";
import { formatDate, formatMoney } from "@/components/ui/format";
import { EmptyState, Notice } from "@/components/ui/states";
import { checkoutByToken, type CheckoutView } from "@/server/domain/checkouts/queries";
import type { CheckoutAddress } from "@/server/domain/checkouts/checkout-request";
import { ConfirmForm } from "./confirm-form";

export const metadata: Metadata = { title: "Checkout", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

/** The checkout's days (a date of birth, the last day to confirm) are UTC days. */
const dayOf = (locale: string, unixSeconds: number) => formatDate(locale, unixSeconds, { timeZone: "UTC" });


/**
 * The built-in connector's hosted checkout (docs/decisions/intake.md#checkouts): the patient
 * reviews what the shop put in the checkout and confirms it; the order is then made through order
 * intake. The token in the path is the only key: an unknown one is the not-found page, with a 404
 * status: the one-row lookup runs before anything streams, so the route has no loading boundary
 * (it would send 200 first); the confirm button shows the wait instead.
 */
export default async function CheckoutPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const locale = await getLocale();
  const cents = (amount: number) => formatMoney(locale, amount);
  const day = (unixSeconds: number) => dayOf(locale, unixSeconds);
  const checkout = await checkoutByToken(token);
  if (!checkout) notFound();
  const { request } = checkout;
  const itemsTotal = checkout.lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);
  const total = itemsTotal + (request.delivery?.deliveryPrice ?? 0);

  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <Brand suffix="Checkout" />
      <header className="mt-8">
        <p className="text-sm text-slate-500">Order from</p>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{checkout.shopName}</h1>
        <p className="mt-1 text-sm text-slate-500">
          {checkout.kind === "TREATMENT_CHECKOUT" ? "Treatment request" : "Prescription order"} no. {checkout.legacyId}
        </p>
      </header>

      <div className="mt-6 space-y-6">
        <StateBanner checkout={checkout} locale={locale} />

        <Section title="Items">
          {checkout.lines.length === 0 ? (
            <EmptyState title="No items in this checkout" />
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="border-b border-slate-200 text-left text-xs uppercase tracking-wide text-slate-500">
                  <th scope="col" className="py-2 font-medium">Item</th>
                  <th scope="col" className="py-2 text-right font-medium">Qty</th>
                  <th scope="col" className="py-2 text-right font-medium">Price</th>
                  <th scope="col" className="py-2 text-right font-medium">Total</th>
                </tr>
              </thead>
              <tbody>
                {checkout.lines.map((line, i) => (
                  <tr key={i} className="border-b border-slate-100 align-top">
                    <td className="py-3">
                      <p className="font-medium text-slate-900">{line.skuName}</p>
                      <p className="text-xs text-slate-500">
                        {line.productName}
                        {line.prescriptionRef ? ` · prescription ${line.prescriptionRef}` : ""}
                      </p>
                    </td>
                    <td className="py-3 text-right tabular-nums">{line.quantity}</td>
                    <td className="py-3 text-right tabular-nums">{cents(line.unitPrice)}</td>
                    <td className="py-3 text-right tabular-nums">{cents(line.unitPrice * line.quantity)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot className="text-slate-700">
                <tr>
                  <td colSpan={3} className="pt-3">Items</td>
                  <td className="pt-3 text-right tabular-nums">{cents(itemsTotal)}</td>
                </tr>
                <tr>
                  <td colSpan={3} className="pt-1">Delivery{request.delivery ? ` (${request.delivery.deliveryType})` : ""}</td>
                  <td className="pt-1 text-right tabular-nums">{cents(request.delivery?.deliveryPrice ?? 0)}</td>
                </tr>
                <tr className="font-semibold text-slate-900">
                  <td colSpan={3} className="pt-2">Total</td>
                  <td className="pt-2 text-right tabular-nums">{cents(total)}</td>
                </tr>
              </tfoot>
            </table>
          )}
          {request.prepaid ? <p className="mt-3 text-xs text-slate-500">Already paid with the shop.</p> : null}
        </Section>

        <Section title="Patient">
          <dl className="grid grid-cols-2 gap-3 text-sm">
            <Detail label="Name">
              {request.patientData.firstName} {request.patientData.lastName}
            </Detail>
            <Detail label="Date of birth">{day(request.patientData.dateOfBirth)}</Detail>
          </dl>
        </Section>

        <Section title="Addresses">
          <div className="grid gap-4 text-sm sm:grid-cols-2">
            <AddressBlock label="Delivery address" address={request.shippingAddress ?? request.billingAddress} />
            <AddressBlock label="Billing address" address={request.billingAddress ?? request.shippingAddress} />
          </div>
        </Section>

        {checkout.prescriptions.length > 0 ? (
          <Section title="Prescriptions">
            <ul className="list-inside list-disc text-sm text-slate-700">
              {checkout.prescriptions.map((name) => (
                <li key={name}>Signed prescription {name}</li>
              ))}
            </ul>
          </Section>
        ) : null}

        {checkout.state === "open" ? <ConfirmForm token={token} total={cents(total)} /> : null}
      </div>
    </main>
  );
}

function StateBanner({ checkout, locale }: { checkout: CheckoutView; locale: string }) {
  switch (checkout.state) {
    case "completed":
      return <Notice>Order placed{checkout.order ? `: ${checkout.order.name}` : ""}. The shop will keep you informed.</Notice>;
    case "expired":
      return <Notice tone="warning">This checkout has expired. Ask the shop for a new one.</Notice>;
    case "closed":
      return <Notice tone="warning">This checkout is no longer available.</Notice>;
    case "open":
      return <p className="text-sm text-slate-600">Please check your order, then confirm it. You can confirm until {dayOf(locale, checkout.request.expiresAt)}.</p>;
  }
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="mb-3 text-sm font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-slate-900">{children}</dd>
    </div>
  );
}

function AddressBlock({ label, address }: { label: string; address: CheckoutAddress | null }) {
  return (
    <div>
      <h3 className="text-xs text-slate-500">{label}</h3>
      {address ? (
        <address className="not-italic text-slate-900">
          {address.firstName} {address.lastName}
          <br />
          {address.address1}
          <br />
          {address.zip} {address.city}
          {address.province ? `, ${address.province}` : ""}
          <br />
          {address.countryCode}
        </address>
      ) : (
        <p className="text-slate-500">None given</p>
      )}
    </div>
  );
}

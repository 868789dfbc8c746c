/** The delivery facts both portals show of an order: its postal address and its shipments. */
import { useFormat } from "@/components/ui/format";

type PostalAddressFields = {
  firstName: string;
  lastName: string;
  street: string;
  houseNumber: string;
  additionalAddress?: string | null;
  zipCode: string;
  city: string;
  country: string;
};

/** The address; `country` is the ISO code, named in the page's language. */
export function PostalAddress({ address }: { address: PostalAddressFields }) {
  const format = useFormat();
  return (
    <address className="text-sm wrap-anywhere not-italic leading-6 text-slate-800">
      {address.firstName} {address.lastName}
      <br />
      {address.street} {address.houseNumber}
      {address.additionalAddress ? (
        <>
          <br />
          {address.additionalAddress}
        </>
      ) : null}
      <br />
      {address.zipCode} {address.city}
      <br />
      {format.country(address.country)}
    </address>
  );
}

type Shipment = { uid: string; sequenceNumber: number; carrierName: string | null; trackingNumber: string | null; trackingUrl: string | null };

/** Each shipment: its number, carrier, tracking number and link (the pharmacy's URL, text otherwise). */
export function ShipmentList({ shipments, trackLabel, className = "" }: { shipments: readonly Shipment[]; trackLabel: string; className?: string }) {
  return (
    <ul className={`space-y-1 text-sm ${className}`}>
      {shipments.map((s) => (
        <li key={s.uid} className="wrap-anywhere">
          #{s.sequenceNumber} {s.carrierName ?? ""} {s.trackingNumber ? <span className="font-mono break-all">{s.trackingNumber}</span> : null}{" "}
          {s.trackingUrl ? (
            <a href={s.trackingUrl} target="_blank" rel="noreferrer noopener" className="text-brand-700 hover:underline">
              {trackLabel}
            </a>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

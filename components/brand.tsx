import Link from "next/link";

/** The service's mark and name, linking home. */
export function Brand({ suffix }: { suffix?: string }) {
  return (
    <Link prefetch={false} href="/" className="flex items-center gap-2.5 text-slate-900">
      <span
        aria-hidden
        className="flex size-8 items-center justify-center rounded-lg bg-brand-700 text-sm font-bold tracking-tight text-white"
      >
        Rx
      </span>
      {/* In a portal's header on a phone the mark alone: the name and the portal stay its link's name. */}
      <span className={suffix ? "sr-only font-semibold tracking-tight sm:not-sr-only sm:whitespace-nowrap" : "font-semibold tracking-tight"}>
        Rx Fulfilment
        {suffix ? (
          <>
            <span aria-hidden className="font-normal text-slate-400">
              {" · "}
            </span>
            <span className="font-normal text-slate-500">{suffix}</span>
          </>
        ) : null}
      </span>
    </Link>
  );
}

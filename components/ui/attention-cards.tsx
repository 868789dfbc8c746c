"use client";

import Link from "next/link";
import { useFormat } from "./format";

export type AttentionCard = { label: string; count: number; detail: string; href: string; link: string };

/** A home page's counts of what needs attention, each with a link to the list that shows it; a non-zero count stands out. */
export function AttentionCards({ cards, className }: { cards: AttentionCard[]; className: string }) {
  const format = useFormat();
  return (
    <ul className={`mt-3 grid gap-4 ${className}`}>
      {cards.map((card) => (
        <li key={card.href} className={`rounded-xl border bg-white p-5 shadow-sm ${card.count > 0 ? "border-amber-300" : "border-slate-200"}`}>
          <p className="text-sm font-medium text-slate-700">{card.label}</p>
          <p className={`mt-2 text-3xl font-semibold tabular-nums ${card.count > 0 ? "text-amber-800" : "text-slate-500"}`}>{format.number(card.count)}</p>
          <p className="mt-1 text-xs text-slate-500">{card.detail}</p>
          <Link prefetch={false} href={card.href} className="mt-3 inline-block text-sm font-medium text-brand-700 hover:underline">
            {card.link} →
          </Link>
        </li>
      ))}
    </ul>
  );
}

import { useTranslations } from "next-intl";
import { Button } from "./controls";

/**
 * The paging bar under a list: "Page 2 of 7 · 160 orders", Previous and Next. `noun`: singular and
 * plural of what is counted.
 */
export function Pager({
  page,
  totalPages,
  total,
  noun,
  onPage,
  className = "",
}: {
  page: number;
  totalPages: number;
  total: number;
  noun: readonly [string, string];
  onPage: (page: number) => void;
  className?: string;
}) {
  const t = useTranslations("common.pager");
  return (
    <nav aria-label={t("label")} className={`flex items-center justify-between gap-4 text-sm text-slate-600 ${className}`}>
      <span>
        {t("position", { page: page + 1, pages: Math.max(totalPages, 1), total, noun: total === 1 ? noun[0] : noun[1] })}
      </span>
      <div className="flex gap-2">
        <Button tone="secondary" disabled={page === 0} onClick={() => onPage(Math.max(0, page - 1))}>
          {t("previous")}
        </Button>
        <Button tone="secondary" disabled={page + 1 >= totalPages} onClick={() => onPage(page + 1)}>
          {t("next")}
        </Button>
      </div>
    </nav>
  );
}

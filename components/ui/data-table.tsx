import { Fragment, type ReactNode } from "react";

/** One column of a DataTable: its header, how a row's cell renders, and which column names the row. */
export type Column<Row> = {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Classes for this column's header and cells (alignment, width, nowrap). */
  className?: string;
  /** A header for screen readers only (an actions column): no visible header, no label in the card. */
  headerHidden?: boolean;
  /** The column that names the row: the card's heading on small screens, sticky at the left on wide ones. Mark one. */
  key?: boolean;
};

/**
 * A list as a real table, one DOM for every width. From 768 px (`md`) it is a `<table>` that
 * scrolls sideways inside its card, never the page, with the key column sticky at the left. Below,
 * CSS lays each row out as a card: the key cell first, as its heading, every other cell preceded by
 * its header (explicit table roles keep the table's semantics when CSS changes the display).
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  empty,
  pager,
  rowClassName,
  detail,
}: {
  /** The table's accessible name (aria-label). */
  label: string;
  columns: Column<Row>[];
  rows: readonly Row[];
  /** A row's React key (the index only where rows have no identity of their own). */
  rowKey: (row: Row, index: number) => string;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  /** Under the table, inside its card (a Pager). */
  pager?: ReactNode;
  rowClassName?: (row: Row) => string;
  /** What a row has opened (its attempts, say): a full-width row under it, or nothing. */
  detail?: (row: Row) => ReactNode;
}) {
  if (rows.length === 0 && empty) return <>{empty}</>;
  return (
    <div className="min-w-0 rounded-xl border border-slate-200 bg-white shadow-sm">
      {/* relative: the visually hidden headers (absolute) stay inside the scroller, not widening the page. */}
      <div className="relative md:overflow-x-auto">
        <table role="table" aria-label={label} className="w-full text-sm max-md:block md:min-w-full md:divide-y md:divide-slate-200">
          <thead role="rowgroup" className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 max-md:sr-only">
            <tr role="row">
              {columns.map((column) => (
                <th
                  key={column.header}
                  role="columnheader"
                  scope="col"
                  className={`px-3 py-2 ${column.key ? "md:sticky md:left-0 md:z-10 md:bg-slate-50" : ""} ${column.className ?? ""}`}
                >
                  {column.headerHidden ? <span className="sr-only">{column.header}</span> : column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody role="rowgroup" className="divide-y divide-slate-100 max-md:block">
            {rows.map((row, index) => {
              const opened = detail?.(row);
              return (
                <Fragment key={rowKey(row, index)}>
                  <tr role="row" className={`max-md:flex max-md:flex-col max-md:gap-1.5 max-md:p-4 ${rowClassName?.(row) ?? ""}`}>
                    {columns.map((column) =>
                      column.key ? (
                        // A cell, not a rowheader: e2e contracts find every value with getByRole("cell").
                        <td
                          key={column.header}
                          role="cell"
                          className={`max-md:order-first max-md:text-base max-md:font-medium max-md:wrap-anywhere md:sticky md:left-0 md:bg-white md:px-3 md:py-2 ${column.className ?? ""}`}
                        >
                          {column.cell(row)}
                        </td>
                      ) : (
                        <td key={column.header} role="cell" className={`max-md:flex max-md:items-baseline max-md:gap-2 md:px-3 md:py-2 ${column.className ?? ""}`}>
                          {!column.headerHidden ? (
                            <span aria-hidden className="w-32 shrink-0 text-xs font-medium uppercase tracking-wide text-slate-500 md:hidden">
                              {column.header}
                            </span>
                          ) : null}
                          {/* A long unbroken value (a permission, a uid) wraps in the card rather than widen the page. */}
                          <div className="min-w-0 max-md:wrap-anywhere">{column.cell(row)}</div>
                        </td>
                      ),
                    )}
                  </tr>
                  {opened ? (
                    <tr role="row" className="max-md:block">
                      <td role="cell" colSpan={columns.length} className="bg-slate-50 px-4 py-4 max-md:block">
                        {opened}
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      {pager ? <div className="border-t border-slate-200 px-4 py-3">{pager}</div> : null}
    </div>
  );
}

/** A pharmacy SKU with this stock or less is running out: the admin home counts its pharmacy, the stock page filters by it (docs/decisions/admin-tool.md#orders-and-issue-threads, "Low-stock threshold"). Vocabulary only: pages import it. */
export const LOW_STOCK_THRESHOLD = 5;

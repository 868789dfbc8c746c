/** A page of a list: page counts from 0. */
export type Page = { page: number; limit: number };

export const pageArgs = (page: Page) => ({ skip: page.page * page.limit, take: page.limit });

/** Wire conventions shared by every presenter: Unix seconds as integers. */
export const unix = (date: Date): number => Math.floor(date.getTime() / 1000);
export const unixOrNull = (date: Date | null | undefined): number | null => (date ? unix(date) : null);

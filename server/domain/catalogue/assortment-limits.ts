/** At most this many SKUs are added to an assortment in one call (the admin tool's "Add SKUs"; a file goes through the import). */
export const ADD_TO_ASSORTMENT_MAX = 100;

/** At most this many characters of dosage instructions per prescription line (vocabulary: the forms import it). */
export const DOSAGE_INSTRUCTIONS_MAX = 500;

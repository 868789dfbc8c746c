/** Object identifiers of qualified certificates (RFC 3739, ETSI EN 319 412-5). */
export const OID_QC_STATEMENTS = "1.3.6.1.5.5.7.1.3";
/** The certificate is an EU qualified certificate. */
export const OID_QC_COMPLIANCE = "0.4.0.1862.1.1";
/** The private key sits in a qualified signature creation device. */
export const OID_QC_SSCD = "0.4.0.1862.1.4";
/** QcType, here with id-etsi-qct-esign (a certificate for electronic signatures). */
export const OID_QC_TYPE = "0.4.0.1862.1.6";
export const OID_QC_TYPE_ESIGN = "0.4.0.1862.1.6.1";

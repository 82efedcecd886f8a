/** Key issuance limit per client address on the browser-test server (RATE_LIMIT_ISSUANCE=N/3600s). */
export const ISSUANCE_LIMIT = 5;

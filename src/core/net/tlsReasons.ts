// Node's certificate error codes in words. Imports nothing, so core/errors can use it for any raw
// TLS error, and failures.ts for the ones it knows the host of.

const UNTRUSTED_CA = 'it was issued by a certificate authority that is not trusted here (a private or company CA?)';

const REASONS: Record<string, string> = {
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate chain ends in a self-signed certificate that is not trusted here (a private or company CA?)',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it presented a self-signed certificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: UNTRUSTED_CA,
  UNABLE_TO_GET_ISSUER_CERT: UNTRUSTED_CA,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: UNTRUSTED_CA,
  CERT_HAS_EXPIRED: 'its certificate has expired',
  CERT_NOT_YET_VALID: 'its certificate is not valid yet (is this computer’s clock right?)',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is for another name',
  CERT_REVOKED: 'its certificate has been revoked',
};

/** Codes fixed by trusting another certificate authority (the others are the server's to fix). */
const TRUST_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

export const TRUST_HINT =
  'To trust a private certificate authority: in the CLI, --ca <ca.pem> or NODE_EXTRA_CA_CERTS=<ca.pem>; in the editor, add it to the system certificate store (with the setting http.systemCertificates on) or set NODE_EXTRA_CA_CERTS. Certificate checks cannot be turned off.';

/** True when `code` is one of Node's certificate errors (the same server gives it again on a retry). */
export function isCertificateCode(code: string | undefined): boolean {
  return code !== undefined && code in REASONS;
}

/** "the certificate of host: <reason> (CODE). <what to do>", or undefined when `code` is not a certificate problem. */
export function certificateProblem(code: string | undefined, host: string | undefined, detail?: string): string | undefined {
  if (code === undefined || !(code in REASONS)) return undefined;
  const who = host ? `the TLS connection to ${host} was refused: ` : 'a TLS connection was refused: ';
  const more = code === 'ERR_TLS_CERT_ALTNAME_INVALID' && detail ? ` (${detail})` : '';
  const todo = TRUST_CODES.has(code) ? ` ${TRUST_HINT}` : ' This is the server’s certificate to fix (or check the URL).';
  return `${who}${REASONS[code]}${more} (${code}).${todo}`;
}

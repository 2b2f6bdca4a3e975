import * as assert from 'node:assert/strict';
import { ApiError, errorText, requestIdSuffix } from '../../../src/core/errors';
import { secondCopy } from '../helpers/secondCopy';

describe('core/errors: errorText(), the one text a user sees for a failure', () => {
  it('an ApiError shows its service, status, code, the service’s own words and the request id', () => {
    const e = new ApiError({
      kind: 'rate-limited',
      service: 'OpenAI',
      message: 'OpenAI HTTP 429',
      status: 429,
      code: 'rate_limit_exceeded',
      serviceMessage: 'Slow down',
      requestId: 'req_1',
    });
    assert.equal(errorText(e), 'OpenAI 429 rate_limit_exceeded: Slow down (request id req_1)');
  });

  it('an ApiError from another bundle (its own copy of the class) is described the same way', () => {
    const other = secondCopy<{ ApiError: typeof ApiError }>('src/core/errors.ts');
    const foreign = new other.ApiError({ kind: 'http', service: 'Maps', status: 403, message: 'm', serviceMessage: 'API not enabled' });
    assert.equal(errorText(foreign), 'Maps 403: API not enabled');
  });

  it('any other error gives its message; a thrown non-error its string', () => {
    assert.equal(errorText(new TypeError('bad input')), 'bad input');
    assert.equal(errorText('plain'), 'plain');
    assert.equal(errorText(42), '42');
  });

  it('a raw certificate error (no host known) is still said in words, with how to trust a private CA', () => {
    const raw = Object.assign(new Error('self-signed certificate in certificate chain'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' });
    assert.match(
      errorText(raw),
      /^a TLS connection was refused: its certificate chain ends in a self-signed certificate .*\(SELF_SIGNED_CERT_IN_CHAIN\)\. To trust a private certificate authority: in the CLI, --ca <ca\.pem>/,
    );
    const expired = Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' });
    assert.match(errorText(expired), /its certificate has expired \(CERT_HAS_EXPIRED\)\. This is the server’s certificate to fix/);
  });

  it('requestIdSuffix names the request only when there is an id', () => {
    assert.equal(requestIdSuffix('abc'), ' (request id abc)');
    assert.equal(requestIdSuffix(undefined), '');
    assert.equal(requestIdSuffix(''), '');
  });
});

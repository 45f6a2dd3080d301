/**
 * Reference authentication: bearer JWTs (HS256, verified with jose) and HTTP basic credentials. The secret and the
 * basic password are made fresh at every start.
 * Source: organization-identity-api.md, Authentication; person-provider-identity-api.md, Authentication.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

/** Most verified tokens remembered (cleared when full). */
const VERIFIED_MAX = 1000;

export class ReferenceAuth {
  private readonly secret = new Uint8Array(randomBytes(32));
  readonly username = 'conformance';
  readonly password = randomBytes(12).toString('base64url');
  /**
   * Bearer tokens verified already, with the time (ms) they expire: the suite sends one token with every request, and
   * verifying its signature each time was a tenth of the reference's CPU in the match-quality benchmark. A remembered
   * token is still refused once it expires.
   */
  private readonly verified = new Map<string, number>();

  /** A valid bearer token for the reference, good for 12 hours. */
  issueToken(subject = 'conformance-suite'): Promise<string> {
    return new SignJWT({ scope: 'identity' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(subject)
      .setIssuedAt()
      .setExpirationTime('12h')
      .sign(this.secret);
  }

  /** Checks an Authorization header against the schemes a service accepts. */
  async verify(header: string | undefined, schemes: Array<'bearer' | 'basic'>): Promise<'ok' | 'missing' | 'invalid'> {
    if (!header) return 'missing';
    const [scheme, value] = header.split(/\s+/, 2);
    if (scheme?.toLowerCase() === 'bearer' && schemes.includes('bearer') && value) {
      const expires = this.verified.get(value);
      if (expires !== undefined && Date.now() < expires) return 'ok';
      try {
        const { payload } = await jwtVerify(value, this.secret, { algorithms: ['HS256'] });
        if (this.verified.size >= VERIFIED_MAX) this.verified.clear();
        this.verified.set(value, typeof payload.exp === 'number' ? payload.exp * 1000 : Number.POSITIVE_INFINITY);
        return 'ok';
      } catch {
        return 'invalid';
      }
    }
    if (scheme?.toLowerCase() === 'basic' && schemes.includes('basic') && value) {
      const expected = Buffer.from(`${this.username}:${this.password}`);
      const given = Buffer.from(value, 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'invalid';
    }
    return 'invalid';
  }
}

import { z } from 'zod';

/**
 * `projects[].auth`: how readers of the project's site sign in (docs/reader-access.md). The keys
 * are Mintlify's dashboard fields (deploy/authentication-setup.mdx) so a portal integration
 * written for the hosted platform keeps working with only the host name changed.
 */

const url = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .refine((u) => !/^[a-z]+:\/\/[^/?#]*@/i.test(u), 'must not contain a user name or password');

/** The hash `docs-appliance reader-auth hash-password` prints (app/reader-access/password.ts). */
export const PASSWORD_HASH = /^scrypt\$\d{1,7}\$\d{1,3}\$\d{1,3}\$[A-Za-z0-9_-]{16,}\$[A-Za-z0-9_-]{32,}$/;

const jwtSchema = z
  .strictObject({
    /** The portal's public key: a PEM file (SPKI, Ed25519); a relative path is resolved against the working directory. */
    publicKeyFile: z.string().min(1),
    /** Where a signed-out reader is sent (with `?redirect=<page>`). */
    loginUrl: url.optional(),
    /** Several portals: readers choose one on /login first (at most 10). */
    loginUrls: z.array(z.strictObject({ name: z.string().min(1).max(100), url })).min(1).max(10).optional(),
  })
  .refine((j) => (j.loginUrl === undefined) !== (j.loginUrls === undefined), 'set exactly one of loginUrl and loginUrls');

const oauthSchema = z
  .strictObject({
    /** An OpenID provider's issuer: its endpoints come from /.well-known/openid-configuration. */
    issuer: url.optional(),
    authorizationUrl: url.optional(),
    tokenUrl: url.optional(),
    clientId: z.string().min(1),
    /** Prefer clientSecretEnv: the file is often reviewed and copied. */
    clientSecret: z.string().min(1).optional(),
    clientSecretEnv: z.string().min(1).optional(),
    scopes: z.array(z.string().min(1)).default([]),
    /** Extra query parameters of the authorization request (e.g. `{"prompt": "login"}`). */
    authorizationParams: z.record(z.string(), z.string()).default({}),
    /** GET with the access token as Bearer; answers Mintlify's user data format. */
    infoApiUrl: url.optional(),
    /** Where /logout sends the reader after ending the session (GET, no parameters added). */
    logoutUrl: url.optional(),
    /** The redirect URI registered at the provider; default: https://<site host>/login/oauth-callback. */
    redirectUrl: url.optional(),
    /** Groups from a token claim instead of the Info API. */
    tokenClaims: z
      .strictObject({
        source: z.enum(['id_token', 'access_token']),
        groupsClaim: z.string().min(1).default('groups'),
        groupsDelimiter: z.string().min(1).max(4).optional(),
      })
      .optional(),
    /** Allow http:// provider endpoints (a lab provider); production providers use https. */
    allowHttp: z.boolean().default(false),
  })
  .superRefine((o, ctx) => {
    if (!o.issuer && (!o.authorizationUrl || !o.tokenUrl)) ctx.addIssue({ code: 'custom', message: 'set issuer (OpenID discovery) or both authorizationUrl and tokenUrl' });
    if (o.clientSecret !== undefined && o.clientSecretEnv !== undefined) ctx.addIssue({ code: 'custom', path: ['clientSecret'], message: 'set clientSecret or clientSecretEnv, not both' });
    if (o.tokenClaims?.source === 'id_token' && !o.issuer) ctx.addIssue({ code: 'custom', path: ['tokenClaims', 'source'], message: '"id_token" needs issuer (the ID token is checked against the keys its discovery names)' });
    if (o.tokenClaims && o.infoApiUrl) ctx.addIssue({ code: 'custom', path: ['tokenClaims'], message: 'set tokenClaims or infoApiUrl, not both: groups come from one of them' });
  });

const passwordSchema = z
  .strictObject({
    /** `scrypt$…` as `docs-appliance reader-auth hash-password` prints it. */
    hash: z.string().regex(PASSWORD_HASH, 'must be a hash printed by `docs-appliance reader-auth hash-password`').optional(),
    /** Environment variable holding that hash. */
    hashEnv: z.string().min(1).optional(),
  })
  .refine((p) => (p.hash === undefined) !== (p.hashEnv === undefined), 'set exactly one of hash and hashEnv');

export const readerAuthSchema = z
  .strictObject({
    method: z.enum(['jwt', 'oauth', 'password']),
    jwt: jwtSchema.optional(),
    oauth: oauthSchema.optional(),
    password: passwordSchema.optional(),
    session: z
      .strictObject({
        /** A session unused this long ends. */
        idleMinutes: z.number().int().min(1).max(30 * 24 * 60).default(7 * 24 * 60),
        /** A session ends this long after sign-in at the latest (the user data's expiresAt can end it sooner). */
        maxHours: z.number().int().min(1).max(24 * 365).default(14 * 24),
      })
      .prefault({}),
  })
  .superRefine((a, ctx) => {
    if (!a[a.method]) ctx.addIssue({ code: 'custom', path: [a.method], message: `method "${a.method}" needs its settings under auth.${a.method}` });
    for (const other of ['jwt', 'oauth', 'password'] as const) {
      if (other !== a.method && a[other]) ctx.addIssue({ code: 'custom', path: [other], message: `only the settings of the chosen method ("${a.method}") may be set` });
    }
  });

export type ReaderAuthConfig = z.output<typeof readerAuthSchema>;

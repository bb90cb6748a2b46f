/**
 * The request bodies of webhook integrations and manual notifications, as the control plane takes
 * them: each parsed once (by its route, or by the in-process control method with the same schema),
 * after which the registry takes the typed value and never parses again. Credentials are named by
 * their field in every error, never echoed.
 *
 * @module
 */
import { NOTIFICATION_TYPES, ObjectId } from '@iacm/sdk/contract';
import type { WebhookCredentials } from '@iacm/webhook-receiver';
import * as z from 'zod';
import { hasControlCharacter } from '../webhook-url.js';

const CONTROL_CHARACTERS =
  'must not contain control characters (CR, LF, tab, NUL, DEL...): in a header they would end or split it';

/** Credentials of a webhook integration as the control plane takes them: Basic, or one header value. */
export const IntegrationCredentialsSchema = z.union([
  z.strictObject({
    basic: z.strictObject({
      username: z
        .string()
        .min(1)
        .max(256)
        .refine((v) => !hasControlCharacter(v), { error: CONTROL_CHARACTERS }),
      password: z
        .string()
        .min(1)
        .max(1024)
        .refine((v) => !hasControlCharacter(v), { error: CONTROL_CHARACTERS }),
    }),
  }),
  z.strictObject({
    authorization: z
      .string()
      .min(1)
      .max(4096)
      .refine((v) => !hasControlCharacter(v), { error: CONTROL_CHARACTERS }),
  }),
]);

/**
 * The `credentials` member: Basic, one `Authorization` header value, or none (`'none'`, `null` or
 * absent). Typed here, checked by the body's refinement ({@link checkCredentials}), whose issues name
 * the field and never echo the value.
 */
const CredentialsMember = z
  .custom<z.output<typeof IntegrationCredentialsSchema> | 'none' | null>()
  .optional();

/**
 * The URL as a string; what it must be (an absolute http(s) URL without a user name, password or
 * control characters) is checked by the registry, whose 400 describes what came without its secrets.
 */
const WebhookUrl = z.string().min(1).max(2048);

/** Body of `POST /__mock/integrations/webhook`. */
export const IntegrationCreateBody = z
  .strictObject({
    nickname: z.string().trim().min(1).max(256),
    url: WebhookUrl,
    credentials: CredentialsMember,
    accountId: z.optional(ObjectId.check(z.toLowerCase())),
  })
  .superRefine((body, ctx) => checkCredentials(body.credentials, ctx));

/** {@link IntegrationCreateBody} once parsed: what the registry creates an integration from. */
export type IntegrationCreateInput = z.output<typeof IntegrationCreateBody>;

/** Body of `PATCH /__mock/integrations/webhook/{id}`. */
export const IntegrationUpdateBody = z
  .strictObject({
    nickname: z.string().trim().min(1).max(256).optional(),
    url: WebhookUrl.optional(),
    replaceCredentials: z.boolean().optional(),
    credentials: CredentialsMember,
  })
  .superRefine((body, ctx) => {
    if (body.credentials !== undefined && body.replaceCredentials !== true) {
      ctx.addIssue({
        code: 'custom',
        path: ['replaceCredentials'],
        message:
          'set replaceCredentials: true to change the stored credentials (without it they stay unchanged)',
      });
    }
    checkCredentials(body.credentials, ctx);
  });

/** {@link IntegrationUpdateBody} once parsed: what the registry edits an integration with. */
export type IntegrationUpdateInput = z.output<typeof IntegrationUpdateBody>;

/** Body of `POST /__mock/notifications`: a notification to deliver (a full payload, or a kind to generate). */
export const NotificationBody = z.looseObject({
  notificationType: z.enum(NOTIFICATION_TYPES),
  accountId: z.optional(ObjectId.check(z.toLowerCase())),
});

/** The string at `path` inside `value`, if there is one. */
function stringAt(value: unknown, path: readonly string[]): string | undefined {
  let current = value;
  for (const part of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return typeof current === 'string' ? current : undefined;
}

/** The one check of a `credentials` member: control characters, then the shape. */
function checkCredentials(value: unknown, ctx: z.RefinementCtx): void {
  if (value === undefined || value === null || value === 'none') return;
  // Named by the field; the value is never echoed (under `credentials`, issues describe strings by length).
  let controls = false;
  for (const path of [['authorization'], ['basic', 'username'], ['basic', 'password']]) {
    const text = stringAt(value, path);
    if (text !== undefined && hasControlCharacter(text)) {
      ctx.addIssue({ code: 'custom', path: ['credentials', ...path], message: CONTROL_CHARACTERS });
      controls = true;
    }
  }
  if (controls) return;
  if (typeof value === 'object' && 'basic' in value && 'authorization' in value) {
    ctx.addIssue({
      code: 'custom',
      path: ['credentials'],
      message: 'Basic credentials and an Authorization header value are mutually exclusive; give one',
    });
    return;
  }
  const parsed = IntegrationCredentialsSchema.safeParse(value);
  if (!parsed.success) {
    ctx.addIssue({
      code: 'custom',
      path: ['credentials'],
      message: 'expected { basic: { username, password } }, { authorization: "<Scheme> <value>" } or none',
    });
  }
}

/** Checked credentials as the sender uses them (the receiver's shape), `undefined` for none. */
export function toCredentials(value: z.output<typeof CredentialsMember>): WebhookCredentials | undefined {
  if (value === undefined || value === null || value === 'none') return undefined;
  return 'basic' in value
    ? { type: 'basic', username: value.basic.username, password: value.basic.password }
    : { type: 'header', value: value.authorization };
}

import { errorText } from "@/i18n/error-text";
import { database, Prisma, type Tx } from "@/server/db/client";
import { isUniqueViolation } from "@/server/db/errors";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { FieldErrorCollector, NotFoundError } from "@/server/domain/errors";
import { pageArgs, type Page } from "@/server/domain/paging";
import { EVENT_TYPES, PAYLOAD_VERSION, PHARMACY_EVENT_TYPES } from "./event-types";
import { RESERVED_HEADER_NAMES } from "./headers";
import { generateWebhookSecret, sealSecret } from "./secret-box";
import { webhookTargetProblem } from "./target-rule";

/**
 * Webhook subscriptions of a pharmacy (External Pharmacy API, pharmacy portal) or of an organisation
 * (Management API). Registering the same notification type and target again in the same scope is an
 * upsert: the uid stays, a new secret is issued and the custom header is replaced. Secrets and header
 * values are stored sealed only; the plaintext secret leaves this module once, in the register result.
 * Registering and deleting are recorded in the organisation's audit log (never the secret or header value).
 */

/** The columns callers may see: never the sealed secret or header value. */
const VISIBLE = {
  id: true,
  organisationId: true,
  scope: true,
  pharmacyId: true,
  notificationType: true,
  target: true,
  headerKey: true,
  payloadVersion: true,
  metaData: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.WebhookSubscriptionSelect;

export type Subscription = Prisma.WebhookSubscriptionGetPayload<{ select: typeof VISIBLE }>;
export type Registered = { subscription: Subscription; secret: string };

type CustomHeader = { headerKey?: string | null; headerValue?: string | null };

const MAX_HEADER_KEY_LENGTH = 100;
const MAX_HEADER_VALUE_LENGTH = 1000;
/** meta_data is echoed on every list; a cap keeps it metadata. */
const MAX_META_DATA_BYTES = 16 * 1024;

// RFC 7230 token (tchar).
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Printable ASCII and tab: header bytes that every HTTP stack passes through unchanged.
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

const present = (value: string | null | undefined): value is string => value !== undefined && value !== null;

function checkNotificationType(errors: FieldErrorCollector, type: string, allowed: readonly string[]) {
  if (!allowed.includes(type)) errors.add(["notification_type"], errorText("fields.oneOf", { values: allowed.join(", ") }));
}

function checkCustomHeader(errors: FieldErrorCollector, { headerKey, headerValue }: CustomHeader) {
  if (present(headerKey) && !present(headerValue)) errors.add(["header_value"], errorText("webhooks.headerValueRequired"));
  if (present(headerValue) && !present(headerKey)) errors.add(["header_key"], errorText("webhooks.headerKeyRequired"));
  if (present(headerKey)) {
    if (headerKey.length > MAX_HEADER_KEY_LENGTH) {
      errors.add(["header_key"], errorText("fields.maxLength", { maximum: MAX_HEADER_KEY_LENGTH }));
    } else if (!HTTP_TOKEN.test(headerKey)) {
      errors.add(["header_key"], errorText("webhooks.headerKeyFormat"));
    } else if (RESERVED_HEADER_NAMES.includes(headerKey.toLowerCase())) {
      errors.add(["header_key"], errorText("webhooks.headerKeyReserved", { header: headerKey }));
    }
  }
  if (present(headerValue)) {
    if (headerValue.length > MAX_HEADER_VALUE_LENGTH) {
      errors.add(["header_value"], errorText("fields.maxLength", { maximum: MAX_HEADER_VALUE_LENGTH }));
    } else if (headerValue.length === 0 || !HEADER_VALUE.test(headerValue)) {
      errors.add(["header_value"], errorText("webhooks.headerValueFormat"));
    } else if (headerValue.trim() !== headerValue) {
      // HTTP strips surrounding whitespace, so the receiver would see another value.
      errors.add(["header_value"], errorText("webhooks.headerValueWhitespace"));
    }
  }
}

async function checkTarget(errors: FieldErrorCollector, target: string) {
  const problem = await webhookTargetProblem(target);
  if (problem) errors.add(["target"], problem);
}

/** The sealed columns of a (re-)registration: a fresh secret, and the custom header as given (absent: removed). */
function sealedColumns(input: CustomHeader) {
  const secret = generateWebhookSecret();
  const header = present(input.headerKey) && present(input.headerValue);
  return {
    secret,
    data: {
      secretEncrypted: sealSecret(secret),
      headerKey: header ? input.headerKey! : null,
      headerValueEncrypted: header ? sealSecret(input.headerValue!) : null,
    },
  };
}

const isRecordNotFound = (error: unknown) => error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2025";

/**
 * The upsert, with its audit event in the same transaction. The partial unique indexes on live rows
 * make a concurrent first registration fail for all but one caller; those retry (a new transaction:
 * a failed statement ends a PostgreSQL transaction) and take the update path. An update races only
 * with a delete (the row is no longer live: retry, which creates a new one) or with another update
 * (last one wins, as with two sequential re-registrations).
 */
async function upsert(
  liveKey: Prisma.WebhookSubscriptionWhereInput,
  create: Prisma.WebhookSubscriptionUncheckedCreateInput,
  update: Prisma.WebhookSubscriptionUncheckedUpdateInput,
  actor: Actor,
): Promise<Subscription> {
  const db = await database();
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.$transaction(async (tx) => {
        const existing = await tx.webhookSubscription.findFirst({ where: { ...liveKey, deletedAt: null }, select: { id: true } });
        const subscription = existing
          ? await tx.webhookSubscription.update({ where: { id: existing.id, deletedAt: null }, data: update, select: VISIBLE })
          : await tx.webhookSubscription.create({ data: create, select: VISIBLE });
        await auditSubscription(tx, subscription, actor, existing ? "re-registered" : "registered");
        return subscription;
      });
    } catch (error) {
      if (attempt >= 10 || !(isUniqueViolation(error) || isRecordNotFound(error))) throw error;
    }
  }
}

/** One audit line per registration or deletion: which event type goes where, in which scope. */
async function auditSubscription(tx: Tx, s: Subscription, actor: Actor, action: "registered" | "re-registered" | "deleted") {
  const scope = s.scope === "PHARMACY" ? "Pharmacy webhook" : "Webhook";
  const detail = action === "re-registered" ? " (new secret issued)" : "";
  await recordAuditEvent(tx, s.organisationId, actor, {
    entity: "webhook_subscription",
    entityId: s.id,
    action,
    values: { scope: s.scope, type: s.notificationType, target: s.target },
    summary: `${scope} ${s.notificationType} to ${s.target} ${action}${detail}`,
    details: { scope: s.scope.toLowerCase(), notificationType: s.notificationType, target: s.target, pharmacyId: s.pharmacyId },
  });
}

export async function registerPharmacySubscription(
  input: { organisationId: string; pharmacyId: string; notificationType: string; target: string; actor: Actor } & CustomHeader,
): Promise<Registered> {
  const errors = new FieldErrorCollector();
  checkNotificationType(errors, input.notificationType, PHARMACY_EVENT_TYPES);
  checkCustomHeader(errors, input);
  await checkTarget(errors, input.target);
  errors.throwIfAny();

  const { secret, data } = sealedColumns(input);
  const key = { scope: "PHARMACY", pharmacyId: input.pharmacyId, notificationType: input.notificationType, target: input.target } as const;
  const subscription = await upsert(key, { ...key, organisationId: input.organisationId, payloadVersion: PAYLOAD_VERSION, ...data }, data, input.actor);
  return { subscription, secret };
}

export async function registerOrganisationSubscription(
  input: {
    organisationId: string;
    notificationType: string;
    target: string;
    metaData?: Record<string, unknown> | null;
    payloadVersion?: string | null;
    actor: Actor;
  } & CustomHeader,
): Promise<Registered> {
  const errors = new FieldErrorCollector();
  checkNotificationType(errors, input.notificationType, EVENT_TYPES);
  const payloadVersion = input.payloadVersion ?? PAYLOAD_VERSION;
  if (payloadVersion !== PAYLOAD_VERSION) errors.add(["payload_version"], errorText("fields.oneOf", { values: PAYLOAD_VERSION }));
  const metaData = input.metaData ?? null;
  if (metaData !== null && Buffer.byteLength(JSON.stringify(metaData)) > MAX_META_DATA_BYTES) {
    errors.add(["meta_data"], errorText("webhooks.metaDataTooLarge", { maximum: MAX_META_DATA_BYTES }));
  }
  checkCustomHeader(errors, input);
  await checkTarget(errors, input.target);
  errors.throwIfAny();

  const { secret, data } = sealedColumns(input);
  const replaced = { ...data, payloadVersion, metaData: metaData === null ? Prisma.DbNull : (metaData as Prisma.InputJsonObject) };
  const key = {
    scope: "ORGANISATION",
    organisationId: input.organisationId,
    pharmacyId: null,
    notificationType: input.notificationType,
    target: input.target,
  } as const;
  const subscription = await upsert(key, { ...key, ...replaced }, replaced, input.actor);
  return { subscription, secret };
}

const ORDER = [{ createdAt: "asc" }, { id: "asc" }] satisfies Prisma.WebhookSubscriptionOrderByWithRelationInput[];

const pharmacyLive = (pharmacyId: string): Prisma.WebhookSubscriptionWhereInput => ({ scope: "PHARMACY", pharmacyId, deletedAt: null });
const organisationLive = (organisationId: string): Prisma.WebhookSubscriptionWhereInput => ({
  scope: "ORGANISATION",
  organisationId,
  pharmacyId: null,
  deletedAt: null,
});

/** Every live subscription of the pharmacy, oldest first (the portals show them all). */
export async function listPharmacySubscriptions(pharmacyId: string): Promise<Subscription[]> {
  const db = await database();
  return db.webhookSubscription.findMany({ where: pharmacyLive(pharmacyId), orderBy: ORDER, select: VISIBLE });
}

export async function listOrganisationSubscriptions(organisationId: string): Promise<Subscription[]> {
  const db = await database();
  return db.webhookSubscription.findMany({ where: organisationLive(organisationId), orderBy: ORDER, select: VISIBLE });
}

/** A page of the live subscriptions (the REST lists: "List endpoints are paginated with page and limit"). */
async function pageOf(where: Prisma.WebhookSubscriptionWhereInput, page: Page): Promise<{ items: Subscription[]; total: number }> {
  const db = await database();
  const [items, total] = await Promise.all([
    db.webhookSubscription.findMany({ where, orderBy: ORDER, select: VISIBLE, ...pageArgs(page) }),
    db.webhookSubscription.count({ where }),
  ]);
  return { items, total };
}

export const pageOfPharmacySubscriptions = (pharmacyId: string, page: Page) => pageOf(pharmacyLive(pharmacyId), page);
export const pageOfOrganisationSubscriptions = (organisationId: string, page: Page) => pageOf(organisationLive(organisationId), page);

/**
 * Soft delete: deliveries already queued for it end at their next attempt. Out of scope or unknown:
 * 404. The row lock of the update makes a concurrent second delete see the row deleted (404, no
 * second audit event).
 */
async function softDelete(where: Prisma.WebhookSubscriptionWhereInput, actor: Actor): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const found = await tx.webhookSubscription.findFirst({ where: { ...where, deletedAt: null }, select: VISIBLE });
    if (!found) throw new NotFoundError();
    const { count } = await tx.webhookSubscription.updateMany({ where: { id: found.id, deletedAt: null }, data: { deletedAt: new Date() } });
    if (count === 0) throw new NotFoundError();
    await auditSubscription(tx, found, actor, "deleted");
  });
}

export const deletePharmacySubscription = (pharmacyId: string, subscriptionId: string, actor: Actor) =>
  softDelete({ id: subscriptionId, scope: "PHARMACY", pharmacyId }, actor);

export const deleteOrganisationSubscription = (organisationId: string, subscriptionId: string, actor: Actor) =>
  softDelete({ id: subscriptionId, scope: "ORGANISATION", organisationId, pharmacyId: null }, actor);

/** One live organisation subscription (the admin tool's test send); another organisation's or a pharmacy's: NotFoundError. */
export async function findOrganisationSubscription(organisationId: string, subscriptionId: string): Promise<Subscription> {
  const db = await database();
  const found = await db.webhookSubscription.findFirst({
    where: { id: subscriptionId, scope: "ORGANISATION", organisationId, pharmacyId: null, deletedAt: null },
    select: VISIBLE,
  });
  if (!found) throw new NotFoundError();
  return found;
}

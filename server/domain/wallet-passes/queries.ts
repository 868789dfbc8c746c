import { config } from "@/server/config";
import { database, type Db, type Tx } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { passStatus } from "./revoke-pass";
import { downloadToken, openBarcode } from "./secrets";

/** What a wallet pass shows (the API's wallet pass object, the .pkpass, the verify answer). */
export const walletPassSelect = {
  id: true,
  templateId: true,
  status: true,
  barcodeSealed: true,
  lastMessage: true,
  createdAt: true,
  updatedAt: true,
  deletedAt: true,
  shopCustomer: { select: { shopCustomerId: true, patientId: true } },
  template: { select: { displayName: true, passType: true, organisationId: true, shop: { select: { identifier: true, displayName: true } } } },
} as const;

type WalletPassRow = NonNullable<Awaited<ReturnType<typeof findPassRow>>>;

export type WalletPassView = {
  id: string;
  templateId: string;
  templateDisplayName: string;
  shopIdentifier: string;
  shopDisplayName: string;
  /** The shop's own id of the customer (ShopCustomer.shopCustomerId), the wire's shop_customer_id. */
  shopCustomerId: string;
  status: string;
  barcodeValue: string;
  lastMessage: string | null;
  downloadUrl: string;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
};

/** The pass's .pkpass URL: the patient opens it without an API key, so the path carries an unguessable token. */
export const passDownloadPath = (passId: string) => `/wallet/passes/${passId}/${downloadToken(passId)}.pkpass`;

export function toWalletPassView(row: WalletPassRow): WalletPassView {
  return {
    id: row.id,
    templateId: row.templateId,
    templateDisplayName: row.template.displayName,
    shopIdentifier: row.template.shop.identifier,
    shopDisplayName: row.template.shop.displayName,
    shopCustomerId: row.shopCustomer.shopCustomerId,
    status: row.status,
    barcodeValue: openBarcode(row.barcodeSealed),
    lastMessage: row.lastMessage,
    downloadUrl: `${config().baseUrl}${passDownloadPath(row.id)}`,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deletedAt: row.deletedAt,
  };
}

function findPassRow(db: Db | Tx, where: { id: string; organisationId?: string; live: boolean }) {
  return db.walletPass.findFirst({
    where: {
      id: where.id,
      ...(where.live ? { deletedAt: null } : {}),
      ...(where.organisationId ? { template: { organisationId: where.organisationId } } : {}),
    },
    select: walletPassSelect,
  });
}

/** A live (not deleted) pass of the organisation. */
export async function findLivePass(db: Db | Tx, organisationId: string, passId: string): Promise<WalletPassView> {
  const row = await findPassRow(db, { id: passId, organisationId, live: true });
  if (!row) throw new NotFoundError();
  return toWalletPassView(row);
}

export async function getWalletPass(organisationId: string, passId: string): Promise<WalletPassView> {
  return findLivePass(await database(), organisationId, passId);
}

/** A live pass by uid alone, for the patient's download URL and the PassKit web service (each checks its token first). */
export async function findLivePassById(passId: string): Promise<WalletPassView | null> {
  const row = await findPassRow(await database(), { id: passId, live: true });
  return row ? toWalletPassView(row) : null;
}

/** The shop of the organisation with this identifier; another organisation's shop is not found. */
export async function findShopOfOrganisation(db: Db | Tx, organisationId: string, shopIdentifier: string) {
  const shop = await db.shop.findFirst({ where: { identifier: shopIdentifier, organisationId }, select: { id: true, identifier: true } });
  if (!shop) throw new NotFoundError();
  return shop;
}

export async function listWalletPassTemplates(organisationId: string, shopIdentifier: string) {
  const db = await database();
  const shop = await findShopOfOrganisation(db, organisationId, shopIdentifier);
  const templates = await db.walletPassTemplate.findMany({
    where: { shopId: shop.id },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, displayName: true, passType: true, requiresSignedPrescription: true },
  });
  return templates.map((t) => ({ ...t, shopIdentifier: shop.identifier }));
}

/** The live passes of one customer of a shop (not paginated: a patient holds a handful). */
export async function listWalletPasses(
  organisationId: string,
  filter: { shopIdentifier: string; shopCustomerId: string; templateId?: string },
): Promise<WalletPassView[]> {
  const db = await database();
  const shop = await findShopOfOrganisation(db, organisationId, filter.shopIdentifier);
  const rows = await db.walletPass.findMany({
    where: {
      deletedAt: null,
      shopCustomer: { shopId: shop.id, shopCustomerId: filter.shopCustomerId },
      ...(filter.templateId ? { templateId: filter.templateId } : {}),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: walletPassSelect,
  });
  return rows.map(toWalletPassView);
}

/** A pass as the admin tool's patient page lists it: no barcode value and no download link (identity handles stay with the shop). */
export type PatientWalletPass = {
  id: string;
  templateDisplayName: string;
  shopIdentifier: string;
  shopCustomerId: string;
  status: string;
  lastMessage: string | null;
  createdAt: Date;
  deletedAt: Date | null;
};

/**
 * Every pass of the patient's shop customers, revoked ones included (verify still answers them, so
 * an admin can tell why a counter refused one), newest first; only passes of the organisation's
 * templates (another organisation's patient has none here).
 */
export async function listPatientWalletPasses(organisationId: string, patientId: string): Promise<PatientWalletPass[]> {
  const db = await database();
  const rows = await db.walletPass.findMany({
    where: { shopCustomer: { patientId }, template: { organisationId } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: {
      id: true,
      status: true,
      lastMessage: true,
      createdAt: true,
      deletedAt: true,
      shopCustomer: { select: { shopCustomerId: true } },
      template: { select: { displayName: true, shop: { select: { identifier: true } } } },
    },
  });
  return rows.map((row) => ({
    id: row.id,
    templateDisplayName: row.template.displayName,
    shopIdentifier: row.template.shop.identifier,
    shopCustomerId: row.shopCustomer.shopCustomerId,
    status: passStatus(row),
    lastMessage: row.lastMessage,
    createdAt: row.createdAt,
    deletedAt: row.deletedAt,
  }));
}

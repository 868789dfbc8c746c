import type { Db, Tx } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";

/**
 * The shop a Public API path names (shop_identifier), when it belongs to the key's organisation.
 * Unknown or another organisation's: not found, alike, so identifiers cannot be probed.
 */
export async function shopOfOrganisation(db: Db | Tx, organisationId: string, identifier: string): Promise<{ id: string }> {
  const shop = await db.shop.findFirst({ where: { identifier, organisationId }, select: { id: true } });
  if (!shop) throw new NotFoundError();
  return shop;
}

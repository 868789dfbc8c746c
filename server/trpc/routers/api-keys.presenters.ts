/** The portal's shape of a pharmacy API key: camelCase, uids, dates as Unix seconds; never the key itself. */
import type { PharmacyApiKey } from "@/server/domain/api-keys/pharmacy-keys";
import { unix, unixOrNull } from "@/server/wire/format";

export const presentApiKey = (key: PharmacyApiKey) => ({
  uid: key.id,
  displayName: key.displayName,
  prefix: key.prefix,
  permissions: key.permissions,
  scope: { type: key.scope.type, uid: key.scope.id, displayName: key.scope.displayName },
  createdBy: key.createdBy ? { uid: key.createdBy.id, name: key.createdBy.name, deactivated: key.createdBy.deactivated } : null,
  createdAt: unix(key.createdAt),
  lastUsedAt: unixOrNull(key.lastUsedAt),
});

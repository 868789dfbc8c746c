/** Who made a change, recorded in histories and stock movements. */
export type Actor = { type: "API_KEY"; apiKeyId: string } | { type: "USER"; userId: string } | { type: "SYSTEM" };

export function actorColumns(actor: Actor) {
  return {
    actorType: actor.type,
    actorApiKeyId: actor.type === "API_KEY" ? actor.apiKeyId : null,
    actorUserId: actor.type === "USER" ? actor.userId : null,
  };
}

import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient, Prisma } from "./generated/client";
import { isDriverTx, openDriver, type Driver, type RawTx } from "./driver";
import { applyMigrations } from "./migrate";

export { Prisma };
export type Db = PrismaClient;
/** A Prisma client or the transaction client inside `db.$transaction(async (tx) => …)`. */
export type Tx = Prisma.TransactionClient;
export type { RawTx };

/**
 * The Prisma transaction client of `tx`, for a model call in a function that also runs in the
 * driver's raw-SQL transactions (Driver.transaction): those are chosen only for writes that make no
 * model call, so reaching one there is a bug, reported at once.
 */
export function prismaTx(tx: Tx | RawTx): Tx {
  if (isDriverTx(tx)) throw new Error("a Prisma model call inside a raw-SQL transaction on the driver");
  return tx as Tx;
}

type Opened = { driver: Driver; prisma: PrismaClient };

// Kept on globalThis so that Next.js dev reloads and test helpers share one connection:
// only one process may open a PGlite directory, and only once.
const holder = globalThis as unknown as { __rxDatabase?: Promise<Opened> };

async function open(): Promise<Opened> {
  const driver = openDriver();
  await applyMigrations(driver);
  // pglite-prisma-adapter ships its own copy of the adapter interface types; at run time it is the same interface.
  const adapter =
    driver.kind === "postgres" ? new PrismaPg(driver.pool) : (new PrismaPGlite(driver.pglite) as unknown as PrismaPg);
  const prisma = new PrismaClient({ adapter });
  return { driver, prisma };
}

/** The Prisma client, connected and migrated on first use. */
export async function database(): Promise<Db> {
  holder.__rxDatabase ??= open();
  try {
    return (await holder.__rxDatabase).prisma;
  } catch (error) {
    holder.__rxDatabase = undefined;
    throw error;
  }
}

export async function databaseDriver(): Promise<Driver> {
  await database();
  return (await holder.__rxDatabase!).driver;
}

export async function closeDatabase(): Promise<void> {
  const opened = holder.__rxDatabase;
  holder.__rxDatabase = undefined;
  if (!opened) return;
  const { prisma, driver } = await opened;
  await prisma.$disconnect();
  await driver.close();
}

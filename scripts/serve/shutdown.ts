import cluster from "node:cluster";

/**
 * SIGTERM and SIGINT for a process of the production entry: the first stops it gracefully with
 * `stop` (which must need no module that is not loaded yet: Ctrl-C also ends tsx's compiler
 * process), a second ends it at once, as a second Ctrl-C is meant to (`now` runs first: the primary
 * kills its workers). A stop that fails still ends the process, with the error on stderr.
 *
 * A cluster worker ignores SIGINT: Ctrl-C reaches the whole process group, and the primary then
 * stops each worker with SIGTERM in its turn (a worker's own SIGINT would count as the first signal).
 */
export function stopOnSignals(stop: () => Promise<void>, now: () => void = () => undefined): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      console.error(`[serve] ${signal} again: exiting now`);
      now();
      process.exit(130);
    }
    stopping = true;
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("[serve] the shutdown failed:", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", cluster.isWorker ? () => undefined : onSignal);
}

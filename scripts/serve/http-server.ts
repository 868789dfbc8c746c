import http from "node:http";

export type HttpTimeouts = {
  /** Headers must arrive within this time of the connection (or of the previous response). */
  headersMs: number;
  /** The whole request, headers and body, must arrive within this time. */
  requestMs: number;
  /** An idle keep-alive connection is closed after this time. */
  keepAliveMs: number;
};

/**
 * The HTTP server of one process, with the timeouts that close slow clients' connections (partial
 * headers, a body trickled byte by byte, idle keep-alive) while ordinary clients, which send a
 * request in milliseconds, never meet them. Node checks the header and request deadlines every
 * `connectionsCheckingInterval` (30 s by default, which would let a slow-loris connection live
 * 40 s); checking every second closes it within a second of its deadline.
 */
export function createHttpServer(handler: http.RequestListener, timeouts: HttpTimeouts): http.Server {
  const server = http.createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: Math.max(timeouts.requestMs, timeouts.headersMs),
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: 1_000,
    },
    closingAfterEarlyAnswers(handler),
  );
  return server;
}

/**
 * An answer given before the request's body has arrived (an early refusal: 401, 403, 404, 405, the
 * tRPC cross-site 403, 413) says `Connection: close`, as the 413 of serve/body-guard.ts does: kept
 * alive, the connection would carry the unread rest of the body, and the client's next request on
 * it was lost when the socket was reset seconds later (issue 36). One rule for every answer of the
 * entry, whoever wrote it (the REST kit, tRPC, Next.js).
 */
export function closingAfterEarlyAnswers(handler: http.RequestListener): http.RequestListener {
  return (req, res) => {
    const hasBody = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
    if (hasBody) {
      const writeHead = res.writeHead;
      res.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
        if (!req.complete) this.setHeader("connection", "close");
        return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args);
      } as typeof res.writeHead;
    }
    return handler(req, res);
  };
}

/**
 * Graceful close: stop accepting connections, close the idle keep-alive ones, let requests in
 * flight finish (their connections close after the response), and after `graceMs` cut whatever is
 * left.
 */
export function closeGracefully(server: http.Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    cut.unref();
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}

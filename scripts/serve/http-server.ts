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
    handler,
  );
  return server;
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

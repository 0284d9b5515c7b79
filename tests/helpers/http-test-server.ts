import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the test server saw it, body read in full. */
export interface SeenRequest {
  readonly method: string;
  /** Path and query as sent. */
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

export type Handler = (req: SeenRequest, res: http.ServerResponse) => void;

export interface TestServer {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  readonly origin: string;
  readonly host: string;
  readonly port: number;
  /** Every request that reached the handler, in order. */
  readonly requests: SeenRequest[];
  /** TCP connections accepted: a refused request must leave this at zero. */
  connections(): number;
  close(): Promise<void>;
}

export interface ServeOptions {
  readonly host?: string;
  /** PEM key and certificate: serve HTTPS. */
  readonly tls?: { readonly key: string; readonly cert: string };
}

/** A real HTTP(S) server on a loopback address and a free port, recording what it receives. */
export async function serve(handler: Handler, options: ServeOptions = {}): Promise<TestServer> {
  const host = options.host ?? '127.0.0.1';
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: SeenRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(seen);
      handler(seen, res);
    });
  };
  const server = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, listener) : http.createServer(listener);
  const onConnection = (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  // 'connection' is the TCP accept, before any TLS handshake or HTTP parsing.
  server.on('connection', onConnection);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `${options.tls ? 'https' : 'http'}://${host}:${port}`,
    host,
    port,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 with nothing listening (bound, then released). */
export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

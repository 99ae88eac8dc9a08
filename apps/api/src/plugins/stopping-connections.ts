import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Lets the server stop once its requests in flight are answered, whatever its clients hold open.
 *
 * Node's `server.close()` closes the connections idle between two requests, and waits for every
 * other one. Two kinds never end by themselves, so a stop (SIGTERM) waited for its 15 s limit and
 * then exited without closing the database:
 * - a connection that has sent nothing yet (a browser opens one ahead of its next request);
 * - the connection of a request in flight when the stop began: it is answered keep-alive, then
 *   waits for the client's next request, up to Fastify's keep-alive timeout (72 s).
 * So, when the server stops, a connection without a request is closed; an answer not yet begun
 * says `Connection: close`; and a connection is closed once its last answer is sent.
 */
export function closeConnectionsWhenStopping(app: FastifyInstance): void {
  const answering = new Map<Socket, Set<ServerResponse>>();
  let stopping = false;

  app.server.on('connection', (socket: Socket) => {
    // One accepted after the hook below, before the server stopped listening.
    if (stopping) return socket.destroy();
    answering.set(socket, new Set());
    socket.once('close', () => answering.delete(socket));
  });
  app.server.on('request', (request, response: ServerResponse) => {
    const responses = answering.get(request.socket);
    if (!responses) return;
    // One that arrives after the stop began is answered 503 with Connection: close by Fastify.
    responses.add(response);
    response.once('close', () => {
      responses.delete(response);
      // Once its answer is handed to the system: nothing written is lost.
      if (stopping && responses.size === 0) request.socket.destroySoon();
    });
  });
  // Before the server stops accepting (Fastify runs preClose hooks first, then server.close()).
  app.addHook('preClose', (done) => {
    stopping = true;
    for (const [socket, responses] of answering) {
      if (responses.size === 0) socket.destroy();
      // Only the last of pipelined answers: Node closes the connection after the one that says so.
      const last = [...responses].at(-1);
      if (last && !last.headersSent) last.setHeader('Connection', 'close');
    }
    done();
  });
}

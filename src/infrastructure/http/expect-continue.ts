import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * `Expect: 100-continue`: Node answers 100 Continue to every such request unless the server
 * listens to `checkContinue`. A client announcing a large upload waits for that answer before it
 * sends the bytes, so on the paths `defersContinue` names the interim answer is left to the route
 * (`writeContinueIfExpected`), which writes it once the upload's headers are accepted: a refused
 * upload gets its final answer and no byte is sent. Every other request gets it at once, as before.
 */
export function deferContinue(server: Server, defersContinue: (url: string) => boolean): void {
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (!defersContinue(request.url ?? '')) response.writeContinue();
    server.emit('request', request, response);
  });
}

/** Lets a client that asked for it start sending the body (see `deferContinue`). */
export function writeContinueIfExpected(
  request: IncomingMessage,
  response: ServerResponse | undefined,
): void {
  if (request.headers.expect?.toLowerCase() === '100-continue' && response && !response.headersSent) {
    response.writeContinue();
  }
}

/** The client side's channel to the chaos server process (server.ts): started with `fork`. */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Fixture, Kind, ServerOptions, ServerSummary, ToClient, ToServer } from './types.js';

/** The server process and a request/answer channel to it. */
export class Server {
  readonly #child: ChildProcess;
  readonly #waiting = new Map<number, { resolve: (message: ToClient) => void; reject: (e: Error) => void }>();
  #exited: Error | undefined;
  #next = 0;
  readonly ready: Promise<Extract<ToClient, { t: 'ready' }>>;

  constructor(options: ServerOptions) {
    this.#child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), [JSON.stringify(options)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.ready = new Promise((resolve, reject) => {
      // A server that dies fails every question in flight, instead of leaving the run hanging.
      this.#child.once('exit', (code, signal) => {
        this.#exited = new Error(`the chaos server exited (${signal ?? code})`);
        reject(this.#exited);
        for (const { reject: fail } of this.#waiting.values()) fail(this.#exited);
        this.#waiting.clear();
      });
      this.#child.on('message', (message: ToClient) => {
        if (message.t === 'ready') resolve(message);
        else this.#waiting.get(message.id)?.resolve(message);
      });
    });
  }

  send(message: ToServer): void {
    this.#child.send(message);
  }

  #ask<T extends ToClient>(message: (id: number) => ToServer): Promise<T> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      if (this.#exited) return reject(this.#exited);
      this.#waiting.set(id, {
        resolve: (answer) => {
          this.#waiting.delete(id);
          resolve(answer as T);
        },
        reject,
      });
      this.#child.send(message(id));
    });
  }

  async prepare(callId: string, kind: Kind): Promise<Fixture | undefined> {
    const answer = await this.#ask<Extract<ToClient, { t: 'fixture' }>>((id) => ({
      t: 'prepare',
      id,
      callId,
      kind,
    }));
    if (answer.error) throw new Error(`preparing ${callId}: ${answer.error}`);
    return answer.fixture;
  }

  /** Resolves once the server has handled every message sent before. */
  async sync(): Promise<void> {
    await this.#ask((id) => ({ t: 'sync', id }));
  }

  async collect(reset: boolean): Promise<ServerSummary> {
    return (await this.#ask<Extract<ToClient, { t: 'summary' }>>((id) => ({ t: 'collect', id, reset })))
      .summary;
  }

  close(): void {
    if (this.#child.connected) this.#child.disconnect();
  }
}

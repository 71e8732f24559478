// Forks worker processes (each one instance of a partner's fleet) and talks to them over IPC.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Command, Reply } from './protocol.js';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

export interface Fleet {
  /** Sends `cmd` (or the command made for each worker) to every worker at once; the replies in order. */
  all(cmd: Command | ((index: number) => Command)): Promise<Reply[]>;
  send(index: number, cmd: Command): Promise<Reply>;
  /** Kills worker `index` (SIGKILL: a crash, nothing runs after it) and resolves once it is gone. */
  kill(index: number, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a fresh process in place of worker `index` (after `kill`): it knows nothing of the old one. */
  restart(index: number): Promise<void>;
  readonly size: number;
  close(): Promise<void>;
}

function worker(): Promise<{ child: ChildProcess; call(cmd: Command): Promise<Reply> }> {
  const child = fork(WORKER, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve(r: Reply): void; reject(e: Error): void }>();
  let next = 1;
  return new Promise((resolve, reject) => {
    child.on('message', (message: { id: number; reply: Reply }) => {
      if (message.id === 0) {
        resolve({
          child,
          call(cmd) {
            const id = next++;
            return new Promise<Reply>((res, rej) => {
              pending.set(id, { resolve: res, reject: rej });
              child.send({ id, cmd });
            });
          },
        });
        return;
      }
      pending.get(message.id)?.resolve(message.reply);
      pending.delete(message.id);
    });
    child.on('exit', (code) => {
      const error = new Error(`worker ${child.pid} exited with ${code}`);
      reject(error);
      for (const p of pending.values()) p.reject(error);
      pending.clear();
    });
  });
}

/** Starts `size` worker processes. */
export async function startFleet(size: number): Promise<Fleet> {
  const workers = await Promise.all(Array.from({ length: size }, () => worker()));
  return {
    size,
    all(cmd) {
      return Promise.all(workers.map((w, i) => w.call(typeof cmd === 'function' ? cmd(i) : cmd)));
    },
    send(index, cmd) {
      return workers[index]!.call(cmd);
    },
    kill(index, signal = 'SIGKILL') {
      const { child } = workers[index]!;
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill(signal);
      });
    },
    async restart(index) {
      workers[index] = await worker();
    },
    async close() {
      await Promise.all(
        workers.map(async (w) => {
          if (w.child.exitCode !== null || w.child.signalCode !== null) return;
          await w.call({ op: 'close' }).catch(() => {});
          w.child.kill();
        }),
      );
    },
  };
}

// What a bin's command writes through and reads: stdout, stderr and the environment, as one value
// that a test replaces. `partner-payments` and its `mcp` command both run on it.

/** Where the bin writes and what it reads (the process's, or a test's). */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
}

/** The process's own streams and environment. */
export const processIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
};

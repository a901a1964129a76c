/** A real `hunters serve` on a free loopback port, started and stopped by the tests. */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/**
 * Where the server runs: the repository root when the tests run inside a checkout (the nearest parent
 * holding pyproject.toml, so that a source tree imports), else `fallback` (a copy of this folder
 * elsewhere then needs `hunters` installed in the interpreter: PYTHON=/path/to/venv/bin/python).
 */
function serverDir(fallback: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "pyproject.toml"))) {
    const up = resolve(dir, "..");
    if (up === dir) return fallback;
    dir = up;
  }
  return dir;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.on("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === "object" && addr ? ok(addr.port) : fail(new Error("no port"))));
    });
  });
}

export interface Server {
  address: string;
  stop(): Promise<void>;
}

/**
 * Start the server and wait for its "serving" log line (every game's core is loaded by then).
 * `env`: extra environment, e.g. HUNTERS_CREATE_TOKEN; `extra`: more options of `hunters serve`.
 */
export async function startServer(env: Record<string, string> = {}, extra: string[] = []): Promise<Server> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "hunters-ts-"));
  const python = process.env.PYTHON ?? "python";
  const args = ["-m", "hunters.cli", "serve", "--host", "127.0.0.1", "--port", String(port)];
  const child: ChildProcess = spawn(python, [...args, "--db", join(dir, "matches.db"), ...extra], {
    cwd: serverDir(dir),
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const stderr: string[] = [];
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`server not up after 30 s:\n${stderr.join("\n")}`)), 30_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`server exited (${code}):\n${stderr.join("\n")}`));
    });
    createInterface({ input: child.stderr! }).on("line", (line) => {
      stderr.push(line);
      if (stderr.length > 200) stderr.shift();
      if (line.includes('"msg": "serving"')) {
        clearTimeout(timer);
        ok();
      }
    });
  });
  return {
    address: `127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((ok) => {
        child.removeAllListeners("exit");
        child.once("exit", () => {
          rmSync(dir, { recursive: true, force: true });
          ok();
        });
        child.kill("SIGTERM");
      }),
  };
}

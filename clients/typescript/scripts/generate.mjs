// Regenerate src/gen/ from the repository's proto/ with buf and protoc-gen-es: `npm run generate`.
//
// The google.rpc error protos (ErrorInfo) come from proto/google/rpc/ when the repository vendors
// them; until then from the Python package googleapis-common-protos (a dependency of the server).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const protoRoot = resolve(here, "../../proto");
const bin = join(here, "node_modules", ".bin");
const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };

let input = protoRoot;
let scratch;
if (!existsSync(join(protoRoot, "google/rpc/error_details.proto"))) {
  const python = process.env.PYTHON ?? "python3";
  const rpcDir = execFileSync(python, ["-c", "import google.rpc as r; print(list(r.__path__)[0])"], {
    encoding: "utf8",
  }).trim();
  scratch = mkdtempSync(join(tmpdir(), "hunters-proto-"));
  cpSync(join(protoRoot, "hunters"), join(scratch, "hunters"), { recursive: true });
  for (const file of ["status.proto", "error_details.proto"]) {
    cpSync(join(rpcDir, file), join(scratch, "google/rpc", file));
  }
  input = scratch;
}
try {
  execFileSync(join(bin, "buf"), ["generate", input, "--template", join(here, "buf.gen.yaml")], {
    cwd: here,
    env,
    stdio: "inherit",
  });
} finally {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}

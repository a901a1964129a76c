// Regenerate src/gen/ from the repository's proto/ (hunters/v1 and the vendored google/rpc) with buf
// and protoc-gen-es: `npm run generate`.
import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const protoRoot = resolve(here, "../../proto");
const bin = join(here, "node_modules", ".bin");
const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };

execFileSync(join(bin, "buf"), ["generate", protoRoot, "--template", join(here, "buf.gen.yaml")], {
  cwd: here,
  env,
  stdio: "inherit",
});

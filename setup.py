"""Builds each game's Cython core and generates the gRPC stubs from proto/ (metadata lives in
pyproject.toml). Generated code goes to hunters/v1/ and is never edited by hand.

A game's core is hunters/<game>/_core.pyx, built as the extension hunters.<game>._core: every such file
is found here, with no list of games. Its build flags come from its own header comments
(`# distutils: extra_compile_args = ...`, `extra_link_args`), which cythonize reads. The game-free
helpers the cores share stay in hunters/_core/ (`cimport hunters._core.rng`, `include
"hunters/_core/mcts.pxi"`: includes are found from the repository root)."""
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent


def generate_protos() -> None:
    """proto/hunters/v1/*.proto -> hunters/v1/*_pb2.py, *_pb2.pyi (typed stubs), *_pb2_grpc.py, and
    a copy of each .proto (package data, for clients generated from the installed package)."""
    from importlib import resources

    from grpc_tools import protoc

    protos = sorted(str(p.relative_to(ROOT / "proto")) for p in (ROOT / "proto" / "hunters" / "v1").glob("*.proto"))
    well_known = str(resources.files("grpc_tools") / "_proto")
    out = ROOT / "hunters" / "v1"
    out.mkdir(exist_ok=True)
    for stale in out.glob("*"):  # what a removed .proto made must not linger, importable, beside the new
        if stale.suffix in (".py", ".pyi", ".proto"):
            stale.unlink()
    args = ["grpc_tools.protoc", f"-I{ROOT / 'proto'}", f"-I{well_known}", f"--python_out={ROOT}",
            f"--pyi_out={ROOT}", f"--grpc_python_out={ROOT}", *protos]
    if protoc.main(args) != 0:
        raise RuntimeError("protoc failed on " + " ".join(protos))
    (out / "__init__.py").write_text('"""Generated from proto/hunters/v1 by setup.py: do not edit."""\n')
    for proto in protos:  # the contract itself ships too: importlib.resources.files("hunters.v1") / "matches.proto"
        (out / Path(proto).name).write_bytes((ROOT / "proto" / proto).read_bytes())


generate_protos()

# hunters/_core/ holds only the game-free helpers, no extension: the compiled cores of the old layout
# (hunters/_core/<game>.c, .so) must not linger there, importable under their old names.
for stale in (ROOT / "hunters" / "_core").glob("*"):
    if stale.suffix in (".c", ".so", ".html"):
        stale.unlink()

CORES = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("hunters/*/_core.pyx"))
if not CORES:
    raise RuntimeError(f"no game core (hunters/*/_core.pyx) below {ROOT}")

setup(
    ext_modules=cythonize(
        CORES,  # module names from the paths: hunters/<game>/_core.pyx -> hunters.<game>._core
        include_path=[str(ROOT)],
        compiler_directives={"language_level": "3"},
    )
)

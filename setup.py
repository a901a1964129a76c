"""Builds the Cython extensions of hunters/_core/ and generates the gRPC stubs from proto/
(metadata lives in pyproject.toml). Generated code goes to hunters/v1/ and is never edited by hand."""
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
    args = ["grpc_tools.protoc", f"-I{ROOT / 'proto'}", f"-I{well_known}", f"--python_out={ROOT}",
            f"--pyi_out={ROOT}", f"--grpc_python_out={ROOT}", *protos]
    if protoc.main(args) != 0:
        raise RuntimeError("protoc failed on " + " ".join(protos))
    (out / "__init__.py").write_text('"""Generated from proto/hunters/v1 by setup.py: do not edit."""\n')
    for proto in protos:  # the contract itself ships too: importlib.resources.files("hunters.v1") / "matches.proto"
        (out / Path(proto).name).write_bytes((ROOT / "proto" / proto).read_bytes())


generate_protos()

extensions = [
    Extension(  # OpenMP: the learning batch steps its games on several threads (LearnCore)
        "hunters._core.carcassonne",
        ["hunters/_core/carcassonne.pyx"],
        extra_compile_args=["-O3", "-fopenmp"],
        extra_link_args=["-fopenmp"],
    ),
    Extension("hunters._core.jaeger", ["hunters/_core/jaeger.pyx"], extra_compile_args=["-O3"]),
]

setup(ext_modules=cythonize(extensions, compiler_directives={"language_level": "3"}))

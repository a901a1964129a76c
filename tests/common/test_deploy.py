"""The deployment files, checked without a cluster or a daemon (the container tests run them for real):
the Kubernetes manifests against the API's own schemas (kubernetes-validate, offline) and against each
other and the image; the compose file; the Dockerfile's pins."""

from __future__ import annotations

import copy
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "kubernetes"
DOCKERFILE = (ROOT / "Dockerfile").read_text()
PORT = 50051


def image_uid() -> int:
    return int(re.search(r"useradd [^\n]*--uid (\d+)", DOCKERFILE).group(1))


def manifests() -> dict[str, dict]:
    """kind -> the resource, from every file the kustomization lists."""
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    docs = [d for f in kustomization["resources"] for d in yaml.safe_load_all((K8S / f).read_text()) if d]
    by_kind = {d["kind"]: d for d in docs}
    assert len(by_kind) == len(docs), "one resource of each kind expected"
    return by_kind


def test_the_kustomization_lists_every_manifest():
    listed = yaml.safe_load((K8S / "kustomization.yaml").read_text())["resources"]
    assert sorted(listed) == sorted(p.name for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")
    assert set(manifests()) == {"PersistentVolumeClaim", "Deployment", "Service"}


@pytest.mark.parametrize("version", ["1.27.0", "latest"])
def test_the_kubernetes_manifests_pass_the_api_schemas(version):
    kv = pytest.importorskip("kubernetes_validate", reason="pip install kubernetes-validate (the test extra)")
    version = kv.latest_version() if version == "latest" else version  # 1.27: gRPC probes are GA
    for resource in manifests().values():
        kv.validate(resource, version, strict=True)  # raises ValidationError with the path


def test_the_schema_check_catches_a_mistake():
    kv = pytest.importorskip("kubernetes_validate", reason="pip install kubernetes-validate (the test extra)")
    bad = copy.deepcopy(manifests()["Deployment"])
    bad["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]["grpc"]["port"] = "grpc"  # must be a number
    with pytest.raises(kv.ValidationError):
        kv.validate(bad, kv.latest_version(), strict=True)
    bad = copy.deepcopy(manifests()["Service"])
    bad["spec"]["ports"][0]["prot"] = "TCP"  # a misspelt field: strict mode rejects it
    with pytest.raises(kv.ValidationError):
        kv.validate(bad, kv.latest_version(), strict=True)


def test_the_manifests_agree_with_each_other_and_the_image():
    m = manifests()
    dep, svc, pvc = m["Deployment"], m["Service"], m["PersistentVolumeClaim"]
    pod = dep["spec"]["template"]
    labels = pod["metadata"]["labels"]
    assert dep["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert svc["spec"]["selector"].items() <= labels.items()
    # One writer of the SQLite file: one replica, the old pod gone before the new one mounts the volume.
    assert dep["spec"]["replicas"] == 1 and dep["spec"]["strategy"]["type"] == "Recreate"
    assert pvc["spec"]["accessModes"] == ["ReadWriteOnce"]
    (container,) = pod["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"grpc": PORT}
    assert svc["spec"]["ports"][0]["targetPort"] in ports and svc["spec"]["ports"][0]["port"] == PORT
    for probe in ("livenessProbe", "readinessProbe"):
        assert container[probe]["grpc"]["port"] == PORT  # native gRPC probe on the health service
    # The volume: the PVC, at the image's /data; writable by the image's user.
    mount = {v["mountPath"]: v["name"] for v in container["volumeMounts"]}
    (volume,) = [v for v in pod["spec"]["volumes"] if v["name"] == mount["/data"]]
    assert volume["persistentVolumeClaim"]["claimName"] == pvc["metadata"]["name"]
    sc = pod["spec"]["securityContext"]
    assert sc["runAsNonRoot"] and sc["runAsUser"] == sc["runAsGroup"] == sc["fsGroup"] == image_uid()
    # The server's own grace (5 s) fits in the pod's termination grace.
    assert pod["spec"]["terminationGracePeriodSeconds"] > 5


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
def test_kubectl_renders_the_kustomization():
    out = subprocess.run(["kubectl", "kustomize", str(K8S)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    kinds = sorted(d["kind"] for d in yaml.safe_load_all(out.stdout))
    assert kinds == ["Deployment", "PersistentVolumeClaim", "Service"]


def test_the_compose_file_wires_the_game_server_to_the_sidecar():
    compose = yaml.safe_load((DEPLOY / "compose" / "compose.yaml").read_text())
    hunters, game = compose["services"]["hunters"], compose["services"]["game-server"]
    assert (DEPLOY / "compose" / hunters["build"]["context"] / "Dockerfile").resolve() == ROOT / "Dockerfile"
    assert game["depends_on"]["hunters"]["condition"] == "service_healthy"
    assert game["environment"]["HUNTERS_ADDRESS"] == f"hunters:{PORT}"
    assert any(v.split(":")[1] == "/data" for v in hunters["volumes"])
    assert "ports" not in hunters  # the sidecar is reached over the compose network only
    script = game["volumes"][0].split(":")[0]
    assert (DEPLOY / "compose" / script).is_file()


def test_the_dockerfile_pins_its_base_and_python_packages():
    base = re.search(r"^ARG BASE_IMAGE=(\S+)", DOCKERFILE, re.M).group(1)
    assert re.fullmatch(r"python:3\.11\.\d+-slim-bookworm(@sha256:[0-9a-f]{64})?", base), base
    assert "PIP_CONSTRAINT=/src/deploy/constraints.txt" in DOCKERFILE
    pins = {}
    for line in (DEPLOY / "constraints.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert re.fullmatch(r"\d+(\.\d+)*", version), f"not an exact pin: {line}"
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = project["project"]["dependencies"] + project["build-system"]["requires"]
    for requirement in wanted:
        name = re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)).lower()
        assert name in pins, f"{name} (pyproject.toml) has no pin in deploy/constraints.txt"
    assert "--uid 10001" in DOCKERFILE and "USER 10001:10001" in DOCKERFILE

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
REPLICAS = K8S / "replicas"  # hunters replicas on PostgreSQL
DOCKERFILE = (ROOT / "Dockerfile").read_text()
PORT = 50051
METRICS_PORT = 9464
MONITORING = K8S / "monitoring"  # the Prometheus Operator's ServiceMonitor: a custom resource, apart


def image_uid() -> int:
    return int(re.search(r"useradd [^\n]*--uid (\d+)", DOCKERFILE).group(1))


def manifests() -> dict[str, dict]:
    """kind -> the resource, from every file the kustomization lists."""
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    docs = [d for f in kustomization["resources"] for d in yaml.safe_load_all((K8S / f).read_text()) if d]
    by_kind = {d["kind"]: d for d in docs}
    assert len(by_kind) == len(docs), "one resource of each kind expected"
    return by_kind


def resources(folder: Path) -> list[dict]:
    """Every resource of the files a kustomization lists."""
    kustomization = yaml.safe_load((folder / "kustomization.yaml").read_text())
    return [d for f in kustomization["resources"] for d in yaml.safe_load_all((folder / f).read_text()) if d]


def named(folder: Path) -> dict[tuple[str, str], dict]:
    """(kind, name) -> the resource, for the kustomization in `folder`."""
    docs = resources(folder)
    by_name = {(d["kind"], d["metadata"]["name"]): d for d in docs}
    assert len(by_name) == len(docs), "one resource of each kind and name expected"
    return by_name


def test_the_kustomization_lists_every_manifest():
    for folder in (K8S, REPLICAS):
        listed = yaml.safe_load((folder / "kustomization.yaml").read_text())["resources"]
        assert sorted(listed) == sorted(p.name for p in folder.glob("*.yaml") if p.name != "kustomization.yaml")
    assert set(manifests()) == {"PersistentVolumeClaim", "Deployment", "Service"}
    assert set(named(REPLICAS)) == {
        ("Deployment", "hunters"),
        ("Service", "hunters"),
        ("StatefulSet", "hunters-postgres"),
        ("Service", "hunters-postgres"),
    }


@pytest.mark.parametrize("version", ["1.27.0", "latest"])
def test_the_kubernetes_manifests_pass_the_api_schemas(version):
    kv = pytest.importorskip("kubernetes_validate", reason="pip install kubernetes-validate (the test extra)")
    version = kv.latest_version() if version == "latest" else version  # 1.27: gRPC probes are GA
    for resource in [*manifests().values(), *resources(REPLICAS)]:
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
    assert ports == {"grpc": PORT, "metrics": METRICS_PORT}
    assert svc["spec"]["ports"][0]["targetPort"] in ports and svc["spec"]["ports"][0]["port"] == PORT
    check_metrics(dep, svc)
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


def test_the_replicas_share_the_postgres_database_the_manifests_define():
    m = named(REPLICAS)
    dep, svc = m[("Deployment", "hunters")], m[("Service", "hunters")]
    pg, pg_svc = m[("StatefulSet", "hunters-postgres")], m[("Service", "hunters-postgres")]
    pod = dep["spec"]["template"]
    # Several replicas, rolled one at a time with none missing; no volume: the matches are in PostgreSQL.
    assert dep["spec"]["replicas"] >= 2
    assert dep["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    assert "volumes" not in pod["spec"]
    (container,) = pod["spec"]["containers"]
    assert "volumeMounts" not in container and container["securityContext"]["readOnlyRootFilesystem"]
    assert svc["spec"]["selector"].items() <= pod["metadata"]["labels"].items()
    assert svc["spec"]["ports"][0]["port"] == PORT
    assert {p["containerPort"] for p in container["ports"]} == {PORT, METRICS_PORT}
    check_metrics(dep, svc)
    for probe in ("livenessProbe", "readinessProbe"):
        assert container[probe]["grpc"]["port"] == PORT
    sc = pod["spec"]["securityContext"]
    assert sc["runAsNonRoot"] and sc["runAsUser"] == sc["runAsGroup"] == image_uid()
    # The database URL comes from the secret whose password the StatefulSet's PostgreSQL is given.
    env = {e["name"]: e for e in container["env"]}
    url_ref = env["HUNTERS_DB"]["valueFrom"]["secretKeyRef"]
    pg_container = pg["spec"]["template"]["spec"]["containers"][0]
    pg_env = {e["name"]: e for e in pg_container["env"]}
    assert pg_env["POSTGRES_PASSWORD"]["valueFrom"]["secretKeyRef"]["name"] == url_ref["name"]
    # PostgreSQL: reached through its Service (the host in the documented URL), its data on a claim.
    assert pg["spec"]["serviceName"] == pg_svc["metadata"]["name"] == "hunters-postgres"
    assert pg_svc["spec"]["selector"].items() <= pg["spec"]["template"]["metadata"]["labels"].items()
    assert pg_svc["spec"]["ports"][0]["port"] == 5432
    assert "@hunters-postgres:5432/hunters" in (REPLICAS / "kustomization.yaml").read_text()
    claims = {c["metadata"]["name"] for c in pg["spec"]["volumeClaimTemplates"]}
    assert {v["name"] for v in pg_container["volumeMounts"]} - {"run"} <= claims


def check_metrics(dep: dict, svc: dict) -> None:
    """The server serves its metrics on the port the pod names, annotates and the Service exposes."""
    pod = dep["spec"]["template"]
    (container,) = pod["spec"]["containers"]
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert env["HUNTERS_METRICS_PORT"] == str(METRICS_PORT)
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports["metrics"] == METRICS_PORT
    notes = pod["metadata"]["annotations"]
    assert notes["prometheus.io/scrape"] == "true" and notes["prometheus.io/port"] == str(METRICS_PORT)
    assert notes["prometheus.io/path"] == "/metrics"
    (port,) = [p for p in svc["spec"]["ports"] if p["name"] == "metrics"]
    assert port["port"] == METRICS_PORT and port["targetPort"] == "metrics"


def test_the_service_monitor_scrapes_the_services_metrics_port():
    """A ServiceMonitor is the Prometheus Operator's custom resource, which the API schemas do not
    know: checked here by its shape and against the Services it selects."""
    (monitor,) = [d for d in yaml.safe_load_all((MONITORING / "servicemonitor.yaml").read_text()) if d]
    assert monitor["apiVersion"] == "monitoring.coreos.com/v1" and monitor["kind"] == "ServiceMonitor"
    assert set(monitor) == {"apiVersion", "kind", "metadata", "spec"} and monitor["metadata"]["name"]
    assert set(monitor["spec"]) == {"selector", "endpoints"}
    (endpoint,) = monitor["spec"]["endpoints"]
    assert set(endpoint) <= {"port", "path", "interval", "scrapeTimeout", "scheme"}
    assert endpoint["path"] == "/metrics" and re.fullmatch(r"\d+[smh]", endpoint["interval"])
    selected = 0
    for folder in (K8S, REPLICAS):
        for svc in [d for d in resources(folder) if d["kind"] == "Service"]:
            if monitor["spec"]["selector"]["matchLabels"].items() <= svc["metadata"]["labels"].items():
                selected += 1
                assert endpoint["port"] in {p["name"] for p in svc["spec"]["ports"]}
            else:
                assert svc["metadata"]["name"] == "hunters-postgres"  # not a hunters server
    assert selected == 2


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
def test_kubectl_renders_the_kustomization():
    out = subprocess.run(["kubectl", "kustomize", str(K8S)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    kinds = sorted(d["kind"] for d in yaml.safe_load_all(out.stdout))
    assert kinds == ["Deployment", "PersistentVolumeClaim", "Service"]
    out = subprocess.run(["kubectl", "kustomize", str(REPLICAS)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert sorted(d["kind"] for d in yaml.safe_load_all(out.stdout)) == [
        "Deployment",
        "Service",
        "Service",
        "StatefulSet",
    ]


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


def test_the_compose_monitoring_runs_prometheus_beside_the_sidecar():
    compose = yaml.safe_load((DEPLOY / "compose" / "monitoring.yaml").read_text())
    hunters, prometheus = compose["services"]["hunters"], compose["services"]["prometheus"]
    port = int(hunters["environment"]["HUNTERS_METRICS_PORT"])
    assert port == METRICS_PORT
    folder = DEPLOY / "compose" / prometheus["build"]["context"]
    dockerfile = (folder / "Dockerfile").read_text()
    assert "apt-get install" in dockerfile and " prometheus" in dockerfile  # Debian's package
    config = yaml.safe_load((folder / "prometheus.yml").read_text())
    (job,) = config["scrape_configs"]
    assert job["static_configs"][0]["targets"] == [f"hunters:{port}"]
    assert prometheus["depends_on"]["hunters"]["condition"] == "service_healthy"
    assert all(p.startswith("127.0.0.1:") for p in prometheus["ports"])  # PromQL for the host only


def test_the_compose_replicas_share_one_postgres():
    compose = yaml.safe_load((DEPLOY / "compose" / "replicas.yaml").read_text())
    services = compose["services"]
    replicas = {name: s for name, s in services.items() if name.startswith("hunters")}
    assert len(replicas) >= 2
    (built,) = [s for s in replicas.values() if "build" in s]  # one build, the same image for all
    assert (DEPLOY / "compose" / built["build"]["context"] / "Dockerfile").resolve() == ROOT / "Dockerfile"
    assert len({s["image"] for s in replicas.values()}) == 1
    postgres = services["postgres"]
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    password = postgres["environment"]["POSTGRES_PASSWORD"]
    for service in replicas.values():
        url = service["environment"]["HUNTERS_DB"]
        user, database = postgres["environment"]["POSTGRES_USER"], postgres["environment"]["POSTGRES_DB"]
        assert url == f"postgresql://{user}:{password}@postgres:5432/{database}"
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
    published = [p.rsplit(":", 2)[-2] for s in replicas.values() for p in s["ports"]]
    assert len(set(published)) == len(published)  # each replica on a port of its own
    # The image honours HUNTERS_DB (its entrypoint names no --db that would override it).
    assert "ENV " in DOCKERFILE and "HUNTERS_DB=/data/hunters.db" in DOCKERFILE
    assert '"--db"' not in DOCKERFILE.split("ENTRYPOINT", 1)[1]


@pytest.mark.skipif(shutil.which("docker-compose") is None, reason="docker-compose is not installed")
def test_docker_compose_accepts_the_compose_files():
    for names in (["compose.yaml"], ["replicas.yaml"], ["compose.yaml", "monitoring.yaml"]):
        files = [arg for name in names for arg in ("-f", str(DEPLOY / "compose" / name))]
        out = subprocess.run(
            ["docker-compose", *files, "config", "-q"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 0, out.stderr


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
    postgres = project["project"]["optional-dependencies"]["postgres"]  # in the image too
    assert "['optional-dependencies']['postgres']" in DOCKERFILE
    wanted = project["project"]["dependencies"] + postgres + project["build-system"]["requires"]
    for requirement in wanted:
        name = re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)).lower()
        assert name in pins, f"{name} (pyproject.toml) has no pin in deploy/constraints.txt"
    assert "--uid 10001" in DOCKERFILE and "USER 10001:10001" in DOCKERFILE

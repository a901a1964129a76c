"""The server's Prometheus metrics, scraped over HTTP as Prometheus would: every counter and histogram
moves by exactly what the test did (games played to the end, refusals provoked, a watch stream, bot
seats, the oracle's work); a server without metrics serves none. With --prometheus a real Prometheus
server (Debian's package) scrapes `hunters serve --metrics-port` and answers a PromQL query."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

import hunters
from hunters.client import Client
from hunters.v1 import matches_pb2, oracle_pb2

from .helpers import bearer, rpc_error, stubs

MATCHES = "hunters.v1.MatchService"


def scrape(port: int, settle: bool = True) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of /metrics on `port`: (name, labels) -> value, once every call started is counted
    as handled too (a refusal's status reaches the client as the server aborts the call, a moment
    before the server's interceptor counts it)."""
    deadline = time.monotonic() + 10
    while True:
        samples = _scrape(port)
        started, handled = {}, {}
        for (name, labels), v in samples.items():
            key = dict(labels).get("grpc_method")
            if name == "grpc_server_started_total":
                started[key] = started.get(key, 0) + v
            elif name == "grpc_server_handled_total":
                handled[key] = handled.get(key, 0) + v
        if not settle or started == handled or time.monotonic() > deadline:
            return samples
        time.sleep(0.01)


def _scrape(port: int) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
        assert reply.headers["Content-Type"].startswith("text/plain")
        text = reply.read().decode()
    samples = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            samples[s.name, frozenset(s.labels.items())] = s.value
    return samples


def value(samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def delta(before, after, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


def rpc(method: str, kind: str = "unary") -> dict[str, str]:
    service, name = method.split("/")
    return {"grpc_service": service, "grpc_method": name, "grpc_type": kind}


@pytest.fixture
def metered(server_factory):
    return server_factory(metrics=True, metrics_port=0, http_port=0)


def play_to_the_end(client: Client, game: str, seed: int) -> int:
    """A whole match of `game`, each seat playing its first legal move; the moves played."""
    m = client.create_match(game, players=2, seed=seed)
    moves = 0
    while True:
        legal = client.legal_moves(m.match_id)
        result = client.play(m.match_id, token=m.seat_tokens[legal.player], action=legal[0][1])
        moves += 1
        if result.is_over:
            return moves


def test_games_and_refusals_move_the_counters_by_exactly_what_was_done(metered):
    before = scrape(metered.metrics_port)
    played = {}
    with Client(f"127.0.0.1:{metered.port}") as client:
        for n, game in enumerate(hunters.games.ids()):
            played[game] = play_to_the_end(client, game, seed=3 + n)
    _, stub, _ = stubs(metered.port)
    first = hunters.games.ids()[0]
    created = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=matches_pb2.GameConfig(game=first, players=2)))
    match_id = created.match.match_id
    bad_token = rpc_error(
        stub.PlayMove, matches_pb2.PlayMoveRequest(match_id=match_id, action=0), metadata=bearer("not-a-seat")
    )
    illegal = rpc_error(
        stub.PlayMove,
        matches_pb2.PlayMoveRequest(match_id=match_id, action=10**9),
        metadata=bearer(created.seat_tokens[0]),
    )
    assert bad_token[:2] == (grpc.StatusCode.PERMISSION_DENIED, "INVALID_TOKEN")
    assert illegal[0] == grpc.StatusCode.INVALID_ARGUMENT and illegal[1]
    after = scrape(metered.metrics_port)

    moves = sum(played.values())
    play = rpc(f"{MATCHES}/PlayMove")
    assert delta(before, after, "grpc_server_started_total", **play) == moves + 2
    assert delta(before, after, "grpc_server_handled_total", **play, grpc_code="OK") == moves
    assert delta(before, after, "grpc_server_handled_total", **play, grpc_code="PERMISSION_DENIED") == 1
    assert delta(before, after, "grpc_server_handled_total", **play, grpc_code="INVALID_ARGUMENT") == 1
    assert delta(before, after, "grpc_server_handling_seconds_count", **play) == moves + 2
    assert delta(before, after, "grpc_server_handling_seconds_bucket", **play, le="+Inf") == moves + 2
    assert delta(before, after, "grpc_server_handling_seconds_sum", **play) > 0
    create = rpc(f"{MATCHES}/CreateMatch")
    games = len(played)
    assert delta(before, after, "grpc_server_handled_total", **create, grpc_code="OK") == games + 1
    assert delta(before, after, "grpc_server_started_total", **rpc(f"{MATCHES}/ListLegalMoves")) == moves

    refused = {"grpc_method": "PlayMove", "grpc_code": "PERMISSION_DENIED", "reason": "INVALID_TOKEN"}
    assert delta(before, after, "hunters_rpc_refusals_total", **refused) == 1
    refused = {"grpc_method": "PlayMove", "grpc_code": "INVALID_ARGUMENT", "reason": illegal[1]}
    assert delta(before, after, "hunters_rpc_refusals_total", **refused) == 1
    assert sum(v for (name, _), v in after.items() if name == "hunters_rpc_refusals_total") == 2

    for game, n in played.items():  # labelled by the registry's ids
        assert delta(before, after, "hunters_moves_played_total", game=game) == n
        assert delta(before, after, "hunters_matches_total", game=game, event="over") == 1
        created_here = 2 if game == first else 1
        assert delta(before, after, "hunters_matches_total", game=game, event="created") == created_here
    assert value(after, "hunters_matches_open", game=first) == 1  # the match of the refusals
    assert sum(v for (name, _), v in after.items() if name == "hunters_matches_open") == 1
    if "://" not in metered.store.path:  # a server alone on its SQLite file counts them; else the database
        assert value(after, "hunters_matches_active") == 1
    backend = "postgresql" if "://" in metered.store.path else "sqlite"
    assert delta(before, after, "hunters_store_commit_seconds_count", backend=backend) == moves
    assert value(after, "hunters_store_commit_seconds_bucket", backend=backend, le="+Inf") == moves
    assert not [k for k in after if k[0] == "hunters_store_commit_errors_total"]
    assert value(after, "process_cpu_seconds_total") > 0 and value(after, "process_open_fds") > 0


def test_the_viewer_serves_the_same_metrics(metered):
    with Client(f"127.0.0.1:{metered.port}") as client:
        client.create_match(hunters.games.ids()[0], players=2, seed=1)
    on_viewer, on_port = scrape(metered.http_port), scrape(metered.metrics_port)
    name = "grpc_server_handled_total"
    labels = {**rpc(f"{MATCHES}/CreateMatch"), "grpc_code": "OK"}
    assert value(on_viewer, name, **labels) == value(on_port, name, **labels) == 1


def test_a_watch_stream_is_counted_while_open_and_timed_as_a_stream(metered):
    game = hunters.games.ids()[0]
    with Client(f"127.0.0.1:{metered.port}") as client:
        m = client.create_match(game, players=2, seed=9)
        seen = []
        stream = client.watch(m.match_id)
        first = threading.Event()

        def read() -> None:
            for event in stream:
                seen.append(event)
                first.set()

        reader = threading.Thread(target=read)
        reader.start()
        assert first.wait(10)
        during = scrape(metered.metrics_port, settle=False)  # the stream is still open
        assert value(during, "hunters_watch_streams") == 1
        assert value(during, "grpc_server_started_total", **rpc(f"{MATCHES}/WatchMatch", "server_stream")) == 1
        # the match to its end: the stream ends with it
        while True:
            legal = client.legal_moves(m.match_id)
            if client.play(m.match_id, token=m.seat_tokens[legal.player], action=legal[0][1]).is_over:
                break
        reader.join(30)
    after = scrape(metered.metrics_port)
    watch = rpc(f"{MATCHES}/WatchMatch", "server_stream")
    assert value(after, "hunters_watch_streams") == 0
    assert value(after, "grpc_server_handled_total", **watch, grpc_code="OK") == 1
    assert value(after, "grpc_server_handling_seconds_count", **watch) == 1
    sent = {"grpc_service": MATCHES, "grpc_method": "WatchMatch"}
    assert value(after, "grpc_server_msg_sent_total", **sent) == len(seen) == m_version(client, metered, m) + 1


def m_version(client, server, m) -> int:
    return Client(f"127.0.0.1:{server.port}").get_match(m.match_id).version


def test_bot_seats_and_the_oracle_show_their_work(metered):
    game = hunters.games.ids()[0]
    _, stub, oracle = stubs(metered.port)
    config = matches_pb2.GameConfig(
        game=game,
        players=2,
        seed=4,
        bots=[matches_pb2.BotSeat(seat=0, bot="random"), matches_pb2.BotSeat(seat=1, bot="random")],
    )
    match_id = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config)).match.match_id
    deadline = time.monotonic() + 60
    while stub.GetMatch(matches_pb2.GetMatchRequest(match_id=match_id)).match.status != matches_pb2.MATCH_STATUS_OVER:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    version = stub.GetMatch(matches_pb2.GetMatchRequest(match_id=match_id)).match.version
    games = 300
    replies = list(oracle.SimulateGames(oracle_pb2.SimulateGamesRequest(game=game, games=games, players=2, seed=1)))
    evaluated = oracle.Evaluate(oracle_pb2.EvaluateRequest(config=matches_pb2.GameConfig(game=game, players=2, seed=1)))
    assert evaluated.legal
    after = scrape(metered.metrics_port)
    assert value(after, "hunters_bot_think_seconds_count", game=game) == version
    assert value(after, "hunters_moves_played_total", game=game) == version
    assert value(after, "hunters_bot_seats_thinking") == 0 and value(after, "hunters_bot_seats") == 0
    assert value(after, "hunters_engine_jobs_total", lane="bots") == version
    assert value(after, "hunters_engine_busy_seconds_total", lane="bots") > 0
    assert value(after, "hunters_engine_queued", lane="bots") == 0
    assert value(after, "hunters_oracle_work_total", game=game, kind="simulated_games") == games
    assert value(after, "hunters_oracle_work_total", game=game, kind="simulated_moves") == replies[-1].moves
    assert value(after, "hunters_oracle_work_total", game=game, kind="evaluate_calls") == 1
    assert value(after, "hunters_engine_jobs_total", lane="evaluate") == 1
    assert value(after, "hunters_engine_busy_seconds_total", lane="simulate") > 0
    simulate = rpc("hunters.v1.OracleService/SimulateGames", "server_stream")
    assert value(after, "grpc_server_handled_total", **simulate, grpc_code="OK") == 1
    sent = {"grpc_service": simulate["grpc_service"], "grpc_method": "SimulateGames"}
    assert value(after, "grpc_server_msg_sent_total", **sent) == len(replies)


def test_two_servers_in_one_process_count_apart(server_factory):
    a = server_factory(metrics=True, metrics_port=0)
    b = server_factory(metrics=True, metrics_port=0)
    with Client(f"127.0.0.1:{a.port}") as client:
        client.create_match(hunters.games.ids()[0], players=2, seed=1)
    labels = {**rpc(f"{MATCHES}/CreateMatch"), "grpc_code": "OK"}
    assert value(scrape(a.metrics_port), "grpc_server_handled_total", **labels) == 1
    assert value(scrape(b.metrics_port), "grpc_server_handled_total", **labels) == 0


def test_without_metrics_the_viewer_has_no_metrics_route(server_factory):
    running = server_factory(http_port=0)
    assert running.metrics is None and running.metrics_port is None
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(f"http://127.0.0.1:{running.http_port}/metrics", timeout=10)
    assert err.value.code == 404


def test_a_commit_the_database_refuses_is_counted_by_its_reason(tmp_path):
    """Another process holds SQLite's write lock: the move is UNAVAILABLE / DATABASE_BUSY, counted once
    as a refusal and once as a commit error, and not as a commit."""
    from hunters.service import ServerConfig, create_server

    db = str(tmp_path / "locked.db")
    running = create_server(
        ServerConfig(address="127.0.0.1:0", db=db, db_busy_timeout=0.2, metrics=True, metrics_port=0)
    )
    try:
        with Client(f"127.0.0.1:{running.port}") as client:
            m = client.create_match(hunters.games.ids()[0], players=2, seed=1)
            legal = client.legal_moves(m.match_id)
        _, stub, _ = stubs(running.port)
        before = scrape(running.metrics_port)
        holder = subprocess.Popen(
            [sys.executable, "-c", _HOLD_THE_LOCK, db], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        try:
            assert holder.stdout.readline().strip() == "held"
            request = matches_pb2.PlayMoveRequest(match_id=m.match_id, action=legal[0][1])
            code, reason, _ = rpc_error(stub.PlayMove, request, metadata=bearer(m.seat_tokens[legal.player]))
        finally:
            holder.communicate("")
        assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "DATABASE_BUSY")
        after = scrape(running.metrics_port)
        errors = {"backend": "sqlite", "reason": "DATABASE_BUSY"}
        assert delta(before, after, "hunters_store_commit_errors_total", **errors) == 1
        refused = {"grpc_method": "PlayMove", "grpc_code": "UNAVAILABLE", "reason": "DATABASE_BUSY"}
        assert delta(before, after, "hunters_rpc_refusals_total", **refused) == 1
        assert delta(before, after, "hunters_store_commit_seconds_count", backend="sqlite") == 0
        assert delta(before, after, "hunters_moves_played_total", game=hunters.games.ids()[0]) == 0
    finally:
        running.stop(0)


_HOLD_THE_LOCK = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("held", flush=True)
sys.stdin.read()
db.execute("ROLLBACK")
"""


@pytest.mark.postgres
def test_replicas_count_what_they_hear_and_how_long_they_take_to_catch_up(postgres_cluster):
    """Two replicas on one PostgreSQL database: the moves played on A are commits on A (backend
    postgresql), notifications heard by B, and B's catch-ups of the match it holds in memory."""
    from hunters.service import ServerConfig, create_server

    db = postgres_cluster.new_database()
    a, b = (create_server(ServerConfig(address="127.0.0.1:0", db=db, metrics=True, metrics_port=0)) for _ in range(2))
    try:
        with Client(f"127.0.0.1:{a.port}") as on_a, Client(f"127.0.0.1:{b.port}") as on_b:
            m = on_a.create_match(hunters.games.ids()[0], players=2, seed=1)
            assert on_b.get_match(m.match_id).version == 0  # B holds the match in memory now
            moves = 3
            for _ in range(moves):
                legal = on_a.legal_moves(m.match_id)
                on_a.play(m.match_id, token=m.seat_tokens[legal.player], action=legal[0][1])

            def caught_up():
                samples = scrape(b.metrics_port)
                return samples if value(samples, "hunters_replica_catch_up_seconds_count") else None

            heard = _wait("B to catch up", caught_up)
        on_a_metrics = scrape(a.metrics_port)
        assert value(on_a_metrics, "hunters_store_commit_seconds_count", backend="postgresql") == moves
        assert value(heard, "hunters_replica_notifications_total", kind="move") >= 1
        assert 1 <= value(heard, "hunters_replica_catch_up_seconds_count") <= moves
        assert value(heard, "hunters_moves_played_total", game=hunters.games.ids()[0]) == 0  # played on A
        assert "hunters_matches_active" not in {name for name, _ in heard}  # the database counts them
    finally:
        a.stop(0)
        b.stop(0)


# -- the Grafana dashboard ---------------------------------------------------------------------------
DASHBOARD = Path(__file__).resolve().parents[2] / "deploy" / "grafana" / "hunters.json"
PROMQL_WORDS = {"sum", "rate", "histogram_quantile", "by", "without", "avg", "max", "min", "count", "irate"}


def dashboard_queries() -> list[str]:
    """Every PromQL expression of the dashboard: its panels' targets and its variables' queries."""
    dashboard = json.loads(DASHBOARD.read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
    for variable in dashboard["templating"]["list"]:
        if variable["type"] == "query":
            exprs.append(variable["query"]["query"])
    return exprs


def metric_names(expr: str) -> set[str]:
    """The metrics a PromQL expression reads (label matchers, ranges, groupings and functions left out)."""
    expr = re.sub(r"label_values\((\w+),\s*\w+\)", r"\1", expr)
    expr = re.sub(r'"[^"]*"', "", expr)
    expr = re.sub(r"\{[^}]*\}|\[[^\]]*\]", "", expr)
    expr = re.sub(r"\b(by|without)\s*\([^)]*\)", "", expr)
    return {w for w in re.findall(r"[A-Za-z_:][A-Za-z0-9_:]*", expr) if w not in PROMQL_WORDS}


def exported(registry) -> set[str]:
    """The sample names a registry can export (a labelled metric counts before its first sample)."""
    names = set()
    for family in registry.collect():
        if family.type == "counter":
            names.add(family.name + "_total")
        elif family.type == "histogram":
            names |= {family.name + suffix for suffix in ("_bucket", "_count", "_sum")}
        else:
            names.add(family.name)
    return names


def test_the_grafana_dashboard_asks_only_for_metrics_the_server_exports(metered):
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["uid"] and dashboard["panels"]
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    for panel in dashboard["panels"]:
        assert panel["type"] == "row" or panel["targets"], panel["title"]
    names = set().union(*(metric_names(e) for e in dashboard_queries()))
    assert not names - exported(metered.metrics.registry), "the dashboard asks for metrics the server has not"
    # the panels an operator needs
    assert {"grpc_server_handled_total", "grpc_server_handling_seconds_bucket", "hunters_rpc_refusals_total"} <= names
    assert {"hunters_matches_open", "hunters_watch_streams", "hunters_engine_busy_seconds_total"} <= names
    assert any("histogram_quantile(0.99" in e for e in dashboard_queries())
    assert metric_names('sum by (le) (rate(x_bucket{a="b"}[5m])) / y') == {"x_bucket", "y"}  # the parser itself


def dashboard_for_prometheus(expr: str) -> str:
    """A dashboard expression as Prometheus takes it (Grafana's variables filled in)."""
    return expr.replace("$__rate_interval", "1m").replace('"$job"', '".+"').replace('"$game"', '".+"')


# -- a real Prometheus server -------------------------------------------------------------------------
PROMETHEUS = "/usr/bin/prometheus"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.loads(reply.read())


def _wait(what: str, check, seconds: float = 60.0, every: float = 0.25):
    deadline = time.monotonic() + seconds
    while True:
        try:
            found = check()
        except Exception:  # not up yet (refused, UNAVAILABLE, no data)
            found = None
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(every)


@pytest.mark.prometheus
def test_a_real_prometheus_scrapes_hunters_serve_and_answers_promql(tmp_path: Path):
    """`hunters serve --metrics-port`, as an operator starts it; Prometheus scrapes it every second;
    PromQL's sum of hunters_moves_played_total equals the moves the test played."""
    if not os.access(PROMETHEUS, os.X_OK):
        pytest.fail("--prometheus needs Debian's prometheus package (apt-get install prometheus; .ci/run does)")
    grpc_port, metrics_port, prom_port = _free_port(), _free_port(), _free_port()
    serve = [sys.executable, "-m", "hunters.cli", "serve", "--port", str(grpc_port)]
    serve += ["--metrics-port", str(metrics_port), "--db", str(tmp_path / "m.db"), "--log-format", "json"]
    with open(tmp_path / "serve.log", "w") as log:
        server = subprocess.Popen(serve, stdout=subprocess.DEVNULL, stderr=log)
    config = tmp_path / "prometheus.yml"
    config.write_text(
        "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
        "scrape_configs:\n  - job_name: hunters\n    static_configs:\n"
        f"      - targets: ['127.0.0.1:{metrics_port}']\n"
    )
    command = [PROMETHEUS, f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'tsdb'}"]
    command += [f"--web.listen-address=127.0.0.1:{prom_port}"]
    with open(tmp_path / "prometheus.log", "w") as log:
        prometheus = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    try:
        with Client(f"127.0.0.1:{grpc_port}") as client:
            _wait("hunters serve", lambda: client.list_games())
            moves = play_to_the_end(client, hunters.games.ids()[0], seed=2)
        api = f"http://127.0.0.1:{prom_port}/api/v1"

        def query(promql: str) -> list:
            url = f"{api}/query?" + urllib.parse.urlencode({"query": promql})
            reply = _get_json(url)
            assert reply["status"] == "success", reply
            return reply["data"]["result"]

        # the target is up, and a scrape after the last move has been stored
        _wait("the scrape target up", lambda: query('up{job="hunters"} == 1'))
        moves_query = 'sum(hunters_moves_played_total{job="hunters"})'
        result = _wait("the moves", lambda: [r for r in query(moves_query) if float(r["value"][1]) == moves])
        assert float(result[0]["value"][1]) == moves
        rate = query('sum(grpc_server_handled_total{job="hunters",grpc_method="PlayMove",grpc_code="OK"})')
        assert float(rate[0]["value"][1]) == moves
        # every query of the Grafana dashboard is PromQL this Prometheus takes; the call rates have data
        for expr in dashboard_queries():
            if not expr.startswith("label_values("):
                query(dashboard_for_prometheus(expr))
        calls = 'sum by (grpc_method) (rate(grpc_server_handled_total{job=~"$job"}[$__rate_interval]))'
        assert calls in dashboard_queries()
        methods = _wait("a rate", lambda: {r["metric"]["grpc_method"] for r in query(dashboard_for_prometheus(calls))})
        assert "PlayMove" in methods
    finally:
        prometheus.send_signal(signal.SIGTERM)
        server.send_signal(signal.SIGTERM)
        for process in (prometheus, server):
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
    assert server.returncode == 0, (tmp_path / "serve.log").read_text()[-2000:]
    lines = [json.loads(line) for line in (tmp_path / "serve.log").read_text().splitlines()]
    assert {"serving", "match created", "match over", "stopped"} <= {line["msg"] for line in lines}
    assert next(line for line in lines if line["msg"] == "serving")["metrics_port"] == metrics_port


def test_ci_installs_prometheus_and_runs_the_test_above():
    """Deselected from the plain run (it needs Debian's package), the test above must run in CI."""
    ci = (Path(__file__).resolve().parents[2] / ".ci" / "run").read_text()
    assert "missing+=(prometheus)" in ci
    assert "pytest -q --prometheus -m prometheus tests/service/test_metrics.py" in ci

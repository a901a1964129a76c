"""Service benchmarks: latency of PlayMove and ListLegalMoves against a trivial RPC (the health
check) on loopback, throughput of 16 concurrent clients, SimulateGames against the in-process core.
The server runs in its own process (`hunters serve`), as it would beside a game server."""

import base64
import contextlib
import itertools
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from hunters.carcassonne import Game, random_games
from hunters.service.games import adapter
from hunters.v1 import matches_pb2, matches_pb2_grpc, oracle_pb2, oracle_pb2_grpc

AD = adapter("carcassonne_hg")
CLIENTS = 16
MOVES_PER_CLIENT = 60
SIM_GAMES = 4000


@contextlib.contextmanager
def serving(*extra, db=None, procs=None):
    """`hunters serve` in its own process on a free loopback port, on `db` (a SQLite file or a
    PostgreSQL URL) or else a throwaway SQLite database; yields its address (and appends the process
    to `procs` when given)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with contextlib.ExitStack() as stack:
        if db is None:
            db = os.path.join(stack.enter_context(tempfile.TemporaryDirectory()), "bench.db")
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "hunters.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--db",
                db,
                "--log-level",
                "WARNING",
                *extra,
            ]
        )
        if procs is not None:
            procs.append(proc)
        addr = f"127.0.0.1:{port}"
        try:
            with grpc.insecure_channel(addr) as ch:
                grpc.channel_ready_future(ch).result(timeout=30)
            yield addr
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)


@pytest.fixture(scope="module")
def address():
    with serving() as addr:
        yield addr


class Player:
    """A match on the server mirrored by a local game, handing out the next PlayMove request."""

    def __init__(self, stub, seed):
        self.stub, self.seed = stub, seed
        self._new()

    def _new(self):
        resp = self.stub.CreateMatch(
            matches_pb2.CreateMatchRequest(
                config=matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=self.seed)
            )
        )
        self.match_id, self.tokens = resp.match.match_id, resp.seat_tokens
        self.local = Game.new(players=2, seed=self.seed)
        self.seed += 1000

    def next_request(self):
        if self.local.is_over:
            self._new()
        moves = self.local.legal_moves()
        move = moves[len(self.local.moves) * 7 % len(moves)]
        req = matches_pb2.PlayMoveRequest(
            match_id=self.match_id,
            expected_version=len(self.local.moves),
            move=AD.move_to_proto(move),
            changes_only=True,  # as the clients' bot loops play
        )
        meta = (("authorization", f"Bearer {self.tokens[self.local.player]}"),)
        self.local.play(move)
        return req, meta


@pytest.mark.benchmark(group="service-latency")
def test_latency_interleaved(benchmark, address):
    """Median latency of the health check (a trivial RPC), PlayMove and ListLegalMoves (at decision 40),
    one of each per round so that drifts of a shared machine hit all three alike; medians and ratios go
    to extra_info. The benchmark's own timing is of the three calls together."""
    with grpc.insecure_channel(address) as ch:
        health_stub = health_pb2_grpc.HealthStub(ch)
        stub = matches_pb2_grpc.MatchServiceStub(ch)
        hreq = health_pb2.HealthCheckRequest()
        player = Player(stub, seed=1)
        lister = Player(stub, seed=2)
        for _ in range(40):
            req, meta = lister.next_request()
            stub.PlayMove(req, metadata=meta)
        lreq = matches_pb2.ListLegalMovesRequest(match_id=lister.match_id)
        times = {"health": [], "play": [], "list": []}

        def setup():
            return (player.next_request(),), {}

        def trio(play):
            req, meta = play
            t0 = time.perf_counter()
            health_stub.Check(hreq)
            t1 = time.perf_counter()
            stub.PlayMove(req, metadata=meta)
            t2 = time.perf_counter()
            stub.ListLegalMoves(lreq)
            t3 = time.perf_counter()
            times["health"].append(t1 - t0)
            times["play"].append(t2 - t1)
            times["list"].append(t3 - t2)

        benchmark.pedantic(trio, setup=setup, rounds=3000, warmup_rounds=100)
    med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
    benchmark.extra_info.update(
        health_median=med["health"],
        play_median=med["play"],
        list_median=med["list"],
        play_ratio=med["play"] / med["health"],
        list_ratio=med["list"] / med["health"],
    )


def _concurrent(address, work_per_client):
    """Run CLIENTS threads, each with its own channel; return calls per second."""
    start = threading.Barrier(CLIENTS + 1)
    counts = []

    def run(i):
        with grpc.insecure_channel(address) as ch:
            calls = work_per_client(ch, i)
            start.wait()
            n = 0
            for call in calls:
                call()
                n += 1
            counts.append(n)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    return sum(counts) / (time.perf_counter() - t0)


@pytest.mark.benchmark(group="service-throughput")
def test_concurrent_health_checks(benchmark, address):
    def work(ch, i):
        stub = health_pb2_grpc.HealthStub(ch)
        req = health_pb2.HealthCheckRequest()
        return [lambda: stub.Check(req)] * MOVES_PER_CLIENT

    rate = benchmark.pedantic(_concurrent, args=(address, work), rounds=3)
    benchmark.extra_info["calls_per_second"] = rate


@pytest.mark.benchmark(group="service-throughput")
def test_concurrent_play_moves(benchmark, address):
    seeds = itertools.count(100)

    def work(ch, i):
        stub = matches_pb2_grpc.MatchServiceStub(ch)
        player = Player(stub, seed=next(seeds))
        requests = [player.next_request() for _ in range(MOVES_PER_CLIENT)]
        return [lambda r=r, m=m: stub.PlayMove(r, metadata=m) for r, m in requests]

    rate = benchmark.pedantic(_concurrent, args=(address, work), rounds=3)
    benchmark.extra_info["calls_per_second"] = rate


@pytest.mark.benchmark(group="simulate")
def test_simulate_games_server_vs_process(benchmark, address):
    """SimulateGames in the server against random_games in this process, interleaved pair by pair so
    that drifts of a shared machine hit both sides alike. Each round runs one of each; the medians of
    the two sides go to extra_info."""
    with grpc.insecure_channel(address) as ch:
        stub = oracle_pb2_grpc.OracleServiceStub(ch)
        req = oracle_pb2.SimulateGamesRequest(game="carcassonne_hg", players=2, games=SIM_GAMES, seed=1)
        times = {"local": [], "server": []}

        def pair():
            t0 = time.perf_counter()
            random_games(SIM_GAMES, players=2, seed=1)
            t1 = time.perf_counter()
            last = list(stub.SimulateGames(req))[-1]
            times["local"].append(t1 - t0)
            times["server"].append(time.perf_counter() - t1)
            return last

        last = benchmark.pedantic(pair, rounds=9)
    assert last.done and last.games_done == SIM_GAMES
    local, server = (sorted(v)[len(v) // 2] for v in (times["local"], times["server"]))
    benchmark.extra_info.update(
        server_games_per_second=SIM_GAMES / server, local_games_per_second=SIM_GAMES / local, ratio=local / server
    )


def _medians(stub, health_stub, players, rounds):
    """Median health-check and PlayMove latencies, one of each per round (interleaved)."""
    hreq = health_pb2.HealthCheckRequest()
    health, play = [], []
    for i in range(rounds):
        req, meta = players[i % len(players)].next_request()
        t0 = time.perf_counter()
        health_stub.Check(hreq)
        t1 = time.perf_counter()
        stub.PlayMove(req, metadata=meta)
        play.append(time.perf_counter() - t1)
        health.append(t1 - t0)
    return statistics.median(health), statistics.median(play)


WATCHERS = 2000
WATCHED = [(200, 10), (20, 100)]  # (matches being played, watchers on each): spectators spread out, or crowded


@pytest.mark.benchmark(group="service-watchers")
@pytest.mark.parametrize("matches,per_match", WATCHED, ids=["10-per-match", "100-per-match"])
def test_latency_with_2000_open_watch_streams(benchmark, address, matches, per_match):
    """Health and PlayMove medians idle, then with 2,000 WatchMatch streams open on the matches
    being played (over 20 connections); every watcher must receive every event. Each move is sent
    to every watcher of its match, so the second case does ten times the work per move.

    The streams are held by this process's synchronous client, which buffers their events until they
    are read at the end."""
    with grpc.insecure_channel(address) as ch:
        stub = matches_pb2_grpc.MatchServiceStub(ch)
        health_stub = health_pb2_grpc.HealthStub(ch)
        idle = _medians(stub, health_stub, [Player(stub, seed=5000 + i) for i in range(20)], 400)
        players = [Player(stub, seed=7000 + i) for i in range(matches)]
        channels = [grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)]) for _ in range(20)]
        calls = [
            matches_pb2_grpc.MatchServiceStub(channels[w % 20]).WatchMatch(
                matches_pb2.WatchMatchRequest(match_id=players[w % matches].match_id, from_version=0)
            )
            for w in range(WATCHERS)
        ]
        assert all(next(call).version == 0 for call in calls)  # every stream is open and served
        watched = [p.match_id for p in players]
        loaded = benchmark.pedantic(_medians, args=(stub, health_stub, players, 400), rounds=1)
        assert [p.match_id for p in players] == watched  # no match ended during the run
        complete = 0
        for w, call in enumerate(calls):
            want = len(players[w % matches].local.moves)
            got = [next(call).version for _ in range(want)]
            complete += got == list(range(1, want + 1))
            call.cancel()
        for channel in channels:
            channel.close()
    assert complete == WATCHERS, f"{WATCHERS - complete} watchers missed events"
    benchmark.extra_info.update(
        idle_health=idle[0],
        idle_play=idle[1],
        health=loaded[0],
        play=loaded[1],
        health_ratio=loaded[0] / idle[0],
        play_ratio=loaded[1] / idle[1],
    )


CREATES = 10_000


@pytest.mark.benchmark(group="service-create")
def test_creation_cost_stays_flat(benchmark):
    """Median CreateMatch latency of the first 200 matches against the 9,801st to 10,000th (all of
    them unfinished), interleaved with health checks as the reference."""
    with serving("--max-matches", str(CREATES)) as addr, grpc.insecure_channel(addr) as ch:
        stub = matches_pb2_grpc.MatchServiceStub(ch)
        req = matches_pb2.CreateMatchRequest(config=matches_pb2.GameConfig(game="carcassonne_hg", players=2))

        def create_all():
            times = []
            for _ in range(CREATES):
                t0 = time.perf_counter()
                stub.CreateMatch(req)
                times.append(time.perf_counter() - t0)
            return times

        times = benchmark.pedantic(create_all, rounds=1)
    first, last = statistics.median(times[:200]), statistics.median(times[-200:])
    benchmark.extra_info.update(first_median=first, last_median=last, ratio=last / first)


@pytest.mark.benchmark(group="service-cancel")
def test_cancelled_simulation_stops_engine_work(benchmark, tmp_path):
    """Time from cancelling a 10,000,000-game SimulateGames to its engine thread going idle (the
    server in this process, so that its engine can be watched); the slowest of 10 tries."""
    from hunters.service import ServerConfig, create_server

    running = create_server(ServerConfig(address="127.0.0.1:0", db=str(tmp_path / "cancel.db")))
    try:
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as ch:
            stub = oracle_pb2_grpc.OracleServiceStub(ch)

            def once():
                call = stub.SimulateGames(
                    oracle_pb2.SimulateGamesRequest(game="carcassonne_hg", players=2, games=10_000_000, seed=1)
                )
                next(call)
                t0 = time.perf_counter()
                call.cancel()
                while running.call(lambda: running.engine.busy):
                    time.sleep(0.001)
                return time.perf_counter() - t0

            stops = benchmark.pedantic(lambda: [once() for _ in range(10)], rounds=1)
    finally:
        running.stop(0)
    benchmark.extra_info.update(slowest_stop=max(stops), median_stop=statistics.median(stops))


CLIENT_PROCESSES = 4  # the Python clients of the workers bench: 16, in this many processes of 4 threads
WORKER_ROUNDS = 3
LOAD_SECONDS = 3.0  # each round: every client plays for this long (a closed loop: its next move on each answer)
LOAD_MOVES = 1500  # moves prepared per client and round, more than one plays in LOAD_SECONDS (a Go client
# of two quiet workers has played over 700)
UNLIMITED = ("--max-matches", "100000")  # the matches prepared and not reached stay unfinished
GO_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "clients", "go")
_TICK = os.sysconf("SC_CLK_TCK")


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) of process `pid` so far; 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICK


def _busy() -> float:
    """CPU seconds the whole machine spent busy so far (every core, every process)."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / _TICK


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as f:
            kids += [int(x) for x in f.read().split()]
    return kids


def _client_process(address: str, seed: int, threads: int, start_at: float, seconds: float) -> tuple[int, float, float]:
    try:
        return _client_process_inner(address, seed, threads, start_at, seconds)
    except grpc.RpcError as exc:  # not picklable: its code and details as a plain error
        raise RuntimeError(f"{exc.code()}: {exc.details()}") from None


def _client_process_inner(address, seed, threads, start_at, seconds):
    """One Python client process of the workers bench: `threads` clients, each on a connection of its
    own playing its own matches (created first), all from `start_at` (time.monotonic(), system-wide)
    for `seconds`; returns (moves, when the last one was answered, this process's CPU seconds meanwhile)."""
    seeds = itertools.count(seed)
    stubs = []
    for _ in range(threads):
        ch = grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
        stub = matches_pb2_grpc.MatchServiceStub(ch)
        player = Player(stub, seed=next(seeds))
        stubs.append((ch, stub, [player.next_request() for _ in range(LOAD_MOVES)]))
    played = [0] * threads
    stop_at = start_at + seconds

    def run(i, stub, requests):
        for req, meta in requests:
            if time.monotonic() >= stop_at:
                return
            stub.PlayMove(req, metadata=meta)
            played[i] += 1

    workers = [threading.Thread(target=run, args=(i, stub, reqs)) for i, (_, stub, reqs) in enumerate(stubs)]
    time.sleep(max(0.0, start_at - time.monotonic()))
    cpu = time.process_time()
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    end, cpu = time.monotonic(), time.process_time() - cpu
    for ch, _, _ in stubs:
        ch.close()
    assert all(n < LOAD_MOVES for n in played), "a client ran out of moves: raise LOAD_MOVES"
    return sum(played), end, cpu


def _go_plan(seeds) -> list[dict]:
    """The Go load generator's clients: per client its matches (configuration, and the PlayMove
    requests of LOAD_MOVES moves in all, serialized without the match id the server will give)."""
    clients = []
    for _ in range(CLIENTS):
        seed, matches, left = next(seeds), [], LOAD_MOVES
        while left:
            game = Game.new(players=2, seed=seed)
            config = matches_pb2.GameConfig(game="carcassonne_hg", players=2, seed=seed)
            seats, requests = [], []
            while left and not game.is_over:
                moves = game.legal_moves()
                move = moves[len(game.moves) * 7 % len(moves)]
                req = matches_pb2.PlayMoveRequest(
                    expected_version=len(game.moves), move=AD.move_to_proto(move), changes_only=True
                )
                requests.append(base64.b64encode(req.SerializeToString()).decode())
                seats.append(game.player)
                game.play(move)
                left -= 1
            matches.append(
                {"config": base64.b64encode(config.SerializeToString()).decode(), "seats": seats, "requests": requests}
            )
            seed += 1000
        clients.append({"matches": matches})
    return clients


def _moveload() -> str | None:
    """clients/go/cmd/moveload built (offline, clients/go/scripts/go.sh); None without a Go toolchain."""
    if shutil.which("go") is None:
        return None
    binary = os.path.join(GO_DIR, ".gopath", "bin", "moveload")
    subprocess.run([os.path.join(GO_DIR, "scripts", "go.sh"), "build", "-o", binary, "./cmd/moveload"], check=True)
    return binary


def _split(servers: list[int], load: float, busy: float, seconds: float, moves: int) -> dict:
    """A round's CPU split: cores used (CPU seconds per second) by the server processes, by the load
    generator and by everything else on the machine, and the CPU microseconds per move of each side."""
    server = sum(servers)
    return {
        "server_cores": server / seconds,
        "server_cores_each": [c / seconds for c in servers],
        "load_cores": load / seconds,
        "other_cores": max(0.0, busy - server - load) / seconds,
        "server_us_per_move": 1e6 * server / moves,
        "load_us_per_move": 1e6 * load / moves,
    }


def _go_round(binary: str, address: str, plan: list[dict], workers: list[int]) -> tuple[float, dict]:
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps({"address": address, "seconds": LOAD_SECONDS, "clients": plan}))
    proc.stdin.flush()
    assert proc.stdout.readline().strip() == "ready"  # connected, matches created
    before, busy = [_cpu(p) for p in workers], _busy()
    proc.stdin.write("go\n")
    proc.stdin.flush()
    out = json.loads(proc.stdout.readline())
    after, busy = [_cpu(p) for p in workers], _busy() - busy
    assert proc.wait(timeout=30) == 0
    assert out["exhausted"] == 0, "a client ran out of moves: raise LOAD_MOVES"
    servers = [a - b for a, b in zip(after, before, strict=True)]
    return out["moves"] / out["seconds"], _split(servers, out["cpu_seconds"], busy, out["seconds"], out["moves"])


def _python_round(pool, address: str, seeds, workers: list[int]) -> tuple[float, dict]:
    start_at = time.monotonic() + 5.0  # every process set up (matches created) by then
    per = CLIENTS // CLIENT_PROCESSES
    pending = pool.starmap_async(
        _client_process, [(address, next(seeds), per, start_at, LOAD_SECONDS) for _ in range(CLIENT_PROCESSES)]
    )
    time.sleep(max(0.0, start_at - time.monotonic()))
    before, busy = [_cpu(p) for p in workers], _busy()
    done = pending.get()
    after, busy = [_cpu(p) for p in workers], _busy() - busy
    moves, seconds = sum(m for m, _, _ in done), max(e for _, e, _ in done) - start_at
    servers = [a - b for a, b in zip(after, before, strict=True)]
    return moves / seconds, _split(servers, sum(c for _, _, c in done), busy, seconds, moves)


def _reach_both_workers(address: str) -> None:
    """Wait until both workers of a `--workers 2` server answer (each names itself in the health check)."""
    seen: set[str] = set()
    for _ in range(200):
        with grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
            for name in ("hunters.worker.0", "hunters.worker.1"):
                with contextlib.suppress(grpc.RpcError):
                    health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service=name), timeout=5)
                    seen.add(name)
        if len(seen) == 2:
            return
        time.sleep(0.05)
    raise AssertionError(f"only {seen} answered")


@pytest.mark.benchmark(group="service-workers")
def test_workers_throughput(benchmark):
    """16 clients' PlayMove rate on `hunters serve --workers 2` against `--workers 1`, round by round
    (interleaved), each client on a connection of its own playing moves of its own matches for
    LOAD_SECONDS, with two load generators: clients/go/cmd/moveload (16 goroutines sending prepared
    requests: the cheapest client, so the server's own scaling shows; skipped without Go) and Python
    (CLIENT_PROCESSES processes of 4 threads). Both run on the machine's cores with the servers, so
    each round also measures the CPU split (server processes, load generator, everything else; from
    /proc): on 2 cores the ratio cannot exceed what the load generator leaves of the second core.
    Medians of the rounds and the split go to extra_info and are printed (-s)."""
    import multiprocessing

    binary = _moveload()
    generators = ["go", "python"] if binary else ["python"]
    ctx = multiprocessing.get_context("spawn")
    seeds = itertools.count(20_000, 1_000)
    rates: dict[tuple[str, int], list[float]] = {(g, n): [] for g in generators for n in (1, 2)}
    splits: dict[tuple[str, int], list[dict]] = {key: [] for key in rates}
    load_before = os.getloadavg()
    one_proc: list[subprocess.Popen] = []
    two_proc: list[subprocess.Popen] = []
    with (
        serving(*UNLIMITED, procs=one_proc) as one,
        serving("--workers", "2", *UNLIMITED, procs=two_proc) as two,
        ctx.Pool(CLIENT_PROCESSES) as pool,
    ):
        addresses = {1: one, 2: two}
        _reach_both_workers(two)
        workers = {1: [one_proc[0].pid], 2: _children(two_proc[0].pid)}
        assert len(workers[2]) == 2
        warm_up = time.monotonic() + 5.0  # each pool process imports its modules and plays, untimed
        pool.starmap(_client_process, [(one, next(seeds), 1, warm_up, 0.5) for _ in range(CLIENT_PROCESSES)])

        def rounds():
            for _ in range(WORKER_ROUNDS):
                for generator in generators:
                    plan = _go_plan(seeds) if generator == "go" else None
                    for n, address in addresses.items():
                        if generator == "go":
                            assert binary is not None and plan is not None
                            rate, split = _go_round(binary, address, plan, workers[n])
                        else:
                            rate, split = _python_round(pool, address, seeds, workers[n])
                        rates[generator, n].append(rate)
                        splits[generator, n].append(split)

        benchmark.pedantic(rounds, rounds=1)
    for generator in generators:
        med = {n: statistics.median(rates[generator, n]) for n in (1, 2)}
        info = {
            f"{generator}_workers_1_moves_per_second": med[1],
            f"{generator}_workers_2_moves_per_second": med[2],
            f"{generator}_ratio": med[2] / med[1],
            f"{generator}_ratio_per_round": [
                b / a for a, b in zip(rates[generator, 1], rates[generator, 2], strict=True)
            ],
        }
        for n in (1, 2):
            for key in splits[generator, n][0]:
                if key != "server_cores_each":
                    info[f"{generator}_workers_{n}_{key}"] = statistics.median(s[key] for s in splits[generator, n])
        benchmark.extra_info.update(info)
        print(
            f"\n{generator} clients: --workers 1 {med[1]:,.0f} moves/s,"
            f" --workers 2 {med[2]:,.0f} ({med[2] / med[1]:.2f}x;"
            f" rounds {', '.join(f'{r:.2f}' for r in info[f'{generator}_ratio_per_round'])})"
        )
        for n in (1, 2):
            m = {k: info[f"{generator}_workers_{n}_{k}"] for k in ("server_cores", "load_cores", "other_cores")}
            us = {k: info[f"{generator}_workers_{n}_{k}_us_per_move"] for k in ("server", "load")}
            print(
                f"  --workers {n}: cores used by the server {m['server_cores']:.2f}, the clients {m['load_cores']:.2f},"
                f" the rest of the machine {m['other_cores']:.2f}; CPU per move: server {us['server']:.0f} µs,"
                f" clients {us['load']:.0f} µs"
            )
    benchmark.extra_info.update(load_before=load_before, load_after=os.getloadavg())

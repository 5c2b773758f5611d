"""The web server without a browser (issue 22): Starlette's TestClient.

Bad requests get the package's own one-line messages per field; a computation gives the
advisor's numbers for the same seed and the CLI's JSON and CSV; a stopped or abandoned
computation's process (and its joblib workers) is gone; two computations run at once.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time

import numpy as np
import pandas as pd
import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from wiezen_sim.analysis.advise import EXAMPLE, Advice, advise
from wiezen_sim.analysis.advise.stopping import round_ends
from wiezen_sim.analysis.romanian import check_bid_sigma
from wiezen_sim.analysis.stats import mean_interval
from wiezen_sim.cards import parse_card, parse_hand
from wiezen_sim.cli import main
from wiezen_sim.rules.payments import settle
from wiezen_sim.rules.romanian import check_bids_so_far, check_turned
from wiezen_sim.rules.ruleset import get_rules
from wiezen_sim.vocabulary import parse_seat
from wiezen_sim.web.forms import METHOD_WORDS, check_romanian, romanian_api
from wiezen_sim.web.server import Jobs, _last_word, create_app
from wiezen_sim.web.worker import finite, summary

POSITION = {**EXAMPLE, "samples": "10", "seed": "11"}
# a near tie (pico against vraag ♠ still open after 1000 deals): a run that goes on until it is stopped
CLOSE_CALL = {"hand": "S:73 H:A3 D:632 C:AK8432", "turned": "6S", "samples": "5000"}
SAMPLES_0 = "samples must be from 1 to 100,000, got 0"
ROMANIAN = {"players": "4", "hand": "AS KS 9H", "seat": "1", "trump": "QH", "bids": "1", "samples": "2000", "seed": "5"}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(n_jobs=1)) as c:
        yield c


def _run(client: TestClient, kind: str, form: dict) -> list[dict]:
    """Every message of one computation, to the socket's close."""
    messages = []
    with client.websocket_connect(f"/ws/{kind}") as ws:
        ws.send_text(json.dumps(form))
        while not messages or messages[-1]["type"] not in ("result", "error", "invalid", "stopped"):
            messages.append(ws.receive_json())
    return messages


def _message(call, *args) -> str:
    with pytest.raises(ValueError) as exc:
        call(*args)
    return str(exc.value)


def test_page_has_the_grid_and_the_choices(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.text.count('class="card"') == 2 * 52
    for word in ("tempelaere", "eldest", "double dummy", "Romanian whist", '<option value="4" selected>4'):
        assert word in page.text
    assert client.get("/static/app.js").status_code == 200


@pytest.mark.parametrize(
    ("form", "field", "expected"),
    [
        ({"hand": "S:AKQ H:ZZ"}, "hand", _message(parse_hand, "S:AKQ H:ZZ")),
        ({"hand": "S:AKQJ98 H:AK2 D:K3 C:5"}, "hand", _message(parse_hand, "S:AKQJ98 H:AK2 D:K3 C:5", 13)),
        ({"hand": ""}, "hand", "empty hand"),
        ({"hand": "AS," * 200}, "hand", "600 characters are too many here (at most 300)"),
        ({"turned": "7X"}, "turned", "not a card: '7X' (expected e.g. 'AS', '10H', '♥10', 'RS')"),
        ({"turned": ""}, "turned", "give the turned card: it sets the trump"),
        ({"turned": "7" * 20_000}, "turned", "20,000 characters are too many here (at most 40)"),
        ({"samples": "9" * 5_000}, "samples", "5,000 characters are too many here (at most 40)"),
        ({"seed": " " * 5 + "9" * 41}, "seed", "41 characters are too many here (at most 40)"),
        (
            {"turned": "AS"},
            "turned",
            "the turned card AS is in your hand, but it lies in the dealer's (you are not the dealer)",
        ),
        (
            {"seat": "north"},
            "seat",
            "unknown seat 'north': seats are 0 = eldest (left of the dealer) .. 3 = dealer, "
            "or the names eldest, second, third, dealer",
        ),
        ({"rules": "/etc/rules.toml"}, "rules", "unknown rules preset '/etc/rules.toml'; known: "),
        ({"method": "guess"}, "method", "unknown method 'guess'; known: dd, pimc, pimc-uniform, heuristic"),
        ({"samples": "0"}, "samples", SAMPLES_0),
        ({"samples": "ten"}, "samples", "samples must be a whole number, got 'ten'"),
        ({"samples": "1_000"}, "samples", "samples must be a whole number, got '1_000'"),
        ({"seed": "-3"}, "seed", "the seed must be from 0 to 9,007,199,254,740,991, got -3"),
        (
            {"method": "pimc", "samples": "20000"},
            "samples",
            "samples must be from 1 to 10,000, got 20,000",
        ),  # the CLI's cap
        ({"method": "pimc", "worlds": "0"}, "worlds", "worlds must be a whole number from 1 to"),
        ({"method": "pimc-uniform", "worlds": "0"}, "worlds", "worlds must be a whole number from 1 to"),
    ],
)
def test_bad_fields_get_the_parsers_message(client: TestClient, form: dict, field: str, expected: str) -> None:
    answer = client.get("/api/check/wiezen", params={**POSITION, **form}).json()
    assert list(answer["errors"]) == [field]
    assert answer["errors"][field].startswith(expected)


def test_check_reports_the_cards_for_the_grid(client: TestClient) -> None:
    answer = client.get("/api/check/wiezen", params={**POSITION, "hand": "S:AK H:2"}).json()
    assert answer == {"errors": {"hand": "hand 'S:AK H:2' has 3 cards, expected 13"}, "cards": ["AS", "KS", "2H"],
                      "turned": "7H"}  # fmt: skip
    assert client.get("/api/check/wiezen", params=POSITION).json()["errors"] == {}


def test_romanian_fields(client: TestClient) -> None:
    assert client.get("/api/check/romanian", params=ROMANIAN).json()["errors"] == {}
    bad = {**ROMANIAN, "players": "4", "hand": "AS 2S", "trump": "3H", "bids": "1,x", "scoring": "golf"}
    errors = client.get("/api/check/romanian", params=bad).json()["errors"]
    assert errors["hand"] == "hand: card 2S is not in the 32-card deck for 4 players (ranks 7 to A)"
    assert errors["trump"] == "trump: card 3H is not in the 32-card deck for 4 players (ranks 7 to A)"
    assert errors["bids"].startswith("bids are whole numbers separated by commas")
    assert errors["scoring"].startswith("unknown scoring 'golf'")
    assert check_romanian({**ROMANIAN, "hand": "AS KS QS JS TS 9S AH KH QH"}).errors == {
        "hand": "a Romanian whist deal has 1 to 8 cards per player, got 9"
    }
    # how the hand, the seat, the turned card and the bids fit together: next to the field, before any run
    three = parse_hand("AS KS 9H")
    position = {
        ("trump", "AS"): _message(check_turned, parse_card("AS"), 4, 3, three),
        ("trump", "none"): _message(check_turned, None, 4, 3, three),
        ("seat", "9"): _message(parse_seat, "9", 4),
        ("bids", ""): _message(check_bids_so_far, 4, 3, 1, []),
        ("bids", "1,0"): _message(check_bids_so_far, 4, 3, 1, [1, 0]),
        ("bids", "1,5"): _message(check_bids_so_far, 4, 3, 1, [1, 5]),  # the count first, as the CLI says it
    }
    for (name, text), message in position.items():
        assert check_romanian({**ROMANIAN, name: text}).errors == {name: message}
    eight = {"hand": "AS KS QS JS TS 9S 8S 7S", "bids": "1"}
    assert check_romanian({**ROMANIAN, **eight}).errors == {
        "trump": _message(check_turned, parse_card("QH"), 4, 8, parse_hand(eight["hand"]))
    }
    assert "cannot be in the hand" in position["trump", "AS"] and "give 1 bids so far, got 0" in position["bids", ""]
    assert "give 1 bids so far, got 2" in position["bids", "1,5"]
    # a seat by name, as the CLI takes it (the form asked for a whole number)
    assert check_romanian({**ROMANIAN, "seat": "dealer", "bids": "1,0,1"}).errors == {}
    assert check_romanian({**ROMANIAN, "sigma": "1e-300"}).errors == {"sigma": _message(check_bid_sigma, 1e-300)}
    # Python refuses int() of more than 4,300 digits with a message about its own limit: the field's length says it
    huge = {"players": "9" * 5_000, "bids": "1," * 3_000, "sigma": "x" * 20_000, "trump": "Q" * 41}
    assert check_romanian({**ROMANIAN, **huge}).errors == {
        name: f"{len(text):,} characters are too many here (at most 40)" for name, text in huge.items()
    }


def test_a_page_of_another_site_cannot_start_work(client: TestClient) -> None:
    """Any page the user visits could open a socket to this server and run computations: one whose Origin is not
    the page's own is closed before it starts (a tester's report); the page itself, and clients with no Origin
    header (scripts), are served."""
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect("/ws/wiezen", headers={"origin": "http://evil.example"}) as ws,
    ):
        ws.send_text(json.dumps(POSITION))
        ws.receive_json()
    with client.websocket_connect("/ws/wiezen", headers={"origin": "http://testserver"}) as ws:
        ws.send_text(json.dumps({**POSITION, "samples": "0"}))
        assert ws.receive_json()["type"] == "invalid"


def test_bad_requests(client: TestClient) -> None:
    assert client.get("/api/check/bridge").status_code == 404
    deep = "[" * 100_000 + "]" * 100_000  # a tester's frame: a RecursionError traceback in the server log
    for frame in ("not json", b"\x00\x01", json.dumps([POSITION]).encode(), deep):  # text or binary frames
        with client.websocket_connect("/ws/wiezen") as ws:
            ws.send_text(frame) if isinstance(frame, str) else ws.send_bytes(frame)
            assert ws.receive_json() == {"type": "error", "message": "send the form as one JSON object of fields"}
    assert _run(client, "wiezen", {**POSITION, "hand": "S:AKQ H:ZZ", "samples": "0"}) == [
        {"type": "invalid", "errors": {"hand": "unknown rank 'Z' in 'H:ZZ'", "samples": SAMPLES_0}}
    ]
    # what only a run can find comes back from the job: no sampled deal explains a bid of 3 (σ this small)
    last = _run(client, "romanian", {**ROMANIAN, "bids": "3", "sigma": "0.01", "samples": "200"})[-1]
    assert last["type"] == "error"
    assert last["message"] == "no sampled deal explains the bids so far [3]: raise bid_sigma or samples"


def test_result_is_the_advisors_and_the_clis(client: TestClient, capsys) -> None:
    messages = _run(client, "wiezen", POSITION)
    assert messages[0] == {"type": "started", "seed": 11, "samples": 10}
    progress = messages[1:-1]
    done = [m["done"] for m in progress if "note" not in m]  # after each batch: adaptive, one deal at first
    assert done[0] == 1 and done[-1] == 10 and done == sorted(set(done)), done
    assert [m["done"] for m in progress if "note" in m] == [8]  # the stop rule judged the first round (8 of 10)
    result = messages[-1]
    direct = advise(EXAMPLE["hand"], EXAMPLE["seat"], EXAMPLE["turned"], samples=10, seed=11, n_jobs=1, progress=False)
    assert result["advice"] == finite(direct.to_dict())
    assert result["advice"]["recommendation"] == direct.recommendation
    cli = ["advise", EXAMPLE["hand"], "--seat", EXAMPLE["seat"], "--turned", EXAMPLE["turned"], "--samples", "10",
           "--seed", "11", "--jobs", "1", "--quiet", "--format"]  # fmt: skip
    for fmt in ("json", "csv"):
        assert main([*cli, fmt]) == 0
        assert result[fmt].rstrip("\n") == capsys.readouterr().out.rstrip("\n")
    rows = result["advice"]["contracts"]
    assert result["summary"].startswith(f"Bid {direct.recommendation['contract']}")
    assert [c is None for c in result["trick_charts"]] == [r["trick_distribution"] is None for r in rows]
    assert result["ev_chart"].lstrip().startswith("<?xml") and "<svg" in result["ev_chart"]


def test_a_run_stopped_early_counts_the_deals_it_used(client: TestClient) -> None:
    """Samples are a ceiling: a clear answer stops after a round, and the page says so (not the ceiling)."""
    result = _run(client, "wiezen", {**POSITION, "hand": "S:AKQJT98765432", "samples": "100", "seed": "1"})[-1]
    deals = result["advice"]["deals"]
    assert result["advice"]["stopped_early"] and deals in round_ends(100)[:-1]
    assert result["summary"].endswith(f"over {deals} sampled deals.")
    titles = [chart for chart in result["trick_charts"] if chart]
    assert titles and all(f"of {deals} sampled deals counted" in chart for chart in titles)
    # solo slim, recommended, is a success test: the trick distribution shown first is the first shown row's with one
    # (here none: the rows with trick counts were dropped after 8 deals, never made in them)
    rows, best, first = result["advice"]["contracts"], result["recommended"], result["tricks_row"]
    assert rows[best]["contract"] == "solo_slim" and result["trick_charts"][best] is None
    shown_charts = [i for i, chart in enumerate(result["trick_charts"]) if chart and result["shown"][i]]
    assert first == (shown_charts[0] if shown_charts else None)


def test_rows_one_may_not_bid_are_marked_and_hidden_at_first(client: TestClient) -> None:
    """Three aces oblige troel (RULES.md 1.4): only troel, open miserie and solo slim may be bid; troel's trump is
    the suit of the missing ace (RULES.md 1.5), clubs here. The page does not ask a vraag with a fixed partner seat."""
    form = {**POSITION, "hand": "S:AKQJT9 H:AKQ D:A2 C:32", "turned": "5H", "samples": "64", "seed": "3"}
    result = _run(client, "wiezen", form)[-1]
    rows, labels = result["advice"]["contracts"], result["labels"]
    may_bid = [row["contract"] in ("troel", "open_miserie", "solo_slim") for row in rows]
    assert [why is None for why in result["not_biddable"]] == may_bid
    assert all(row["partner"] in (None, "accepting") for row in rows)
    for row, why in zip(rows, result["not_biddable"], strict=True):
        assert why is None or why.endswith(
            "another seat's abondance" if row["contract"] == "abondance_in_troef" else "aces oblige troel"
        )
    troel = labels[[row["contract"] for row in rows].index("troel")]
    assert troel == "troel ♣" and result["summary"].startswith("Bid troel ♣:")
    assert labels[result["tricks_row"]] == troel  # the recommendation's trick distribution first
    # shown at first, and in the chart: what one may bid and was made in some deal (open miserie, solo slim never)
    made = [ok and row["p_success"] > 0 for row, ok in zip(rows, may_bid, strict=True)]
    assert result["shown"] == made and [name for name, show in zip(labels, made, strict=True) if show] == [troel]
    for name, show in zip(labels, made, strict=True):
        assert (f">{name}<" in result["ev_chart"]) == show, name


def test_romanian_result_is_the_advisors(client: TestClient) -> None:
    result = _run(client, "romanian", ROMANIAN)[-1]
    kwargs = check_romanian(ROMANIAN).kwargs
    direct = romanian_api.advise(**kwargs)
    assert result["advice"] == finite(direct.to_dict())
    assert result["json"] == json.dumps(direct.to_dict())
    assert result["csv"] == direct.to_frame().to_csv(index=False)
    assert result["summary"].startswith(f"Bid {direct.recommendation.bid}:")


def _children(pid: int) -> set[int]:
    out = subprocess.run(["ps", "-eo", "pid=,ppid="], capture_output=True, text=True, check=True).stdout
    pairs = [tuple(int(x) for x in line.split()) for line in out.splitlines() if line.strip()]
    return {child for child, parent in pairs if parent == pid}


def _gone(pids: set[int], timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = subprocess.run(["ps", "-o", "stat=", "-p", ",".join(map(str, pids))], capture_output=True, text=True)
        if all(s.startswith("Z") for s in state.stdout.split()):
            return True
        time.sleep(0.2)
    return False


@pytest.mark.parametrize(("how", "n_jobs"), [("stop", 1), ("close", 2), ("binary stop", 1)])
def test_a_stopped_or_abandoned_job_stops_its_workers(how: str, n_jobs: int) -> None:
    """The stop button sends a message, a closed tab closes the socket: either ends the job and its joblib workers."""
    with TestClient(create_app(n_jobs)) as client:
        jobs = client.app.state.jobs
        with client.websocket_connect("/ws/wiezen") as ws:
            ws.send_text(json.dumps({**POSITION, **CLOSE_CALL}))
            assert ws.receive_json()["type"] == "started"
            assert ws.receive_json()["type"] == "progress"  # the first batch is done: the workers run
            (process,) = jobs.running
            workers = _children(process.pid)
            if n_jobs > 1:
                assert len(workers) >= n_jobs, "the job did not start its joblib workers"
            if how != "close":
                ws.send_text("stop") if how == "stop" else ws.send_bytes(b"stop")
                while (message := ws.receive_json())["type"] == "progress":
                    pass
                # the table over the deals finished, as the CLI prints it after Ctrl-C (it used to say only "stopped")
                assert message["type"] == "stopped" and message["advice"]["partial"] is True, message
                deals = message["advice"]["deals"]
                assert 1 <= deals < 5000 and message["summary"].startswith(
                    f"PARTIAL: the run was stopped after {deals}"
                )
        assert _gone({process.pid} | workers), "the job or its workers outlived the page"
        deadline = time.monotonic() + 30
        while jobs.running and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not jobs.running


@pytest.mark.parametrize(("kind", "form"), [("wiezen", POSITION), ("romanian", ROMANIAN)])
def test_a_finished_job_ends_at_once_with_its_workers(kind: str, form: dict) -> None:
    """loky's workers left running after the run (idle, or finishing a batch of a round the stop rule did not need)
    held up the job's exit until the server killed it, 10 s later: the page waited that long for its answer."""
    with TestClient(create_app(2)) as client:
        jobs = client.app.state.jobs
        with client.websocket_connect(f"/ws/{kind}") as ws:
            ws.send_text(json.dumps(form))
            assert ws.receive_json()["type"] == "started"
            (process,) = jobs.running
            while (message := ws.receive_json())["type"] == "progress":
                pass
        assert message["type"] == "result" and process.exitcode == 0, (message["type"], process.exitcode)


def _job_stopped_as_its_run_ends(conn, kwargs: dict, n_jobs: int) -> None:
    """A job whose run has ended (the stop rule settled) when the stop comes: it is building its result."""
    conn.send({"type": "progress", "done": 64})
    time.sleep(2)
    conn.send({"type": "result", "done": 64})


def test_a_job_stopped_after_its_run_ended_sends_its_whole_result() -> None:
    """A stop pressed as the run settled killed the job while it built its result: the page read a bare "stopped"
    instead of the result over every deal (the CI once). The job holds a stop that comes outside its run."""
    jobs = Jobs(1)
    process, connection = jobs.start(_job_stopped_as_its_run_ends, {})
    assert connection.poll(60) and connection.recv()["type"] == "progress"
    os.killpg(process.pid, signal.SIGTERM)
    assert asyncio.run(_last_word(connection, process)) == {"type": "result", "done": 64}
    asyncio.run(jobs.stop(process))
    assert process.exitcode == 0


def _job_with_a_child(conn, kwargs: dict, n_jobs: int) -> None:
    """A job that starts a process of its own, as joblib's workers are, says so and waits."""
    subprocess.Popen(["sleep", "300"])
    conn.send({"type": "progress", "done": 0})
    time.sleep(300)


def test_stopping_a_job_ends_the_processes_it_started() -> None:
    """Deterministically what a job stopped between two batches left: its workers, orphaned but alive."""
    jobs = Jobs(1)
    process, connection = jobs.start(_job_with_a_child, {})
    assert connection.poll(60) and connection.recv()["type"] == "progress"
    (child,) = _children(process.pid)
    asyncio.run(jobs.stop(process))
    assert _gone({process.pid, child}), "a process the job started outlived it"
    assert not jobs.running


def test_a_job_killed_from_outside_is_a_message(client: TestClient) -> None:
    """A job killed by SIGKILL (the OOM killer, ``kill -9``) is an error on the page, and its workers (which ignore
    SIGTERM) die with it: they went on with their batch, unseen, for as long as it took (the CI found one)."""
    with client.websocket_connect("/ws/wiezen") as ws:
        ws.send_text(json.dumps({**POSITION, **CLOSE_CALL}))
        assert ws.receive_json()["type"] == "started"
        assert ws.receive_json()["type"] == "progress"
        (process,) = client.app.state.jobs.running
        workers = _children(process.pid)
        assert workers, "the job runs its batches in worker processes"
        os.kill(process.pid, signal.SIGKILL)
        while (message := ws.receive_json())["type"] == "progress":
            pass
        assert message == {"type": "error", "message": "the computation stopped (exit code -9)"}
        assert _gone(workers, timeout=3), "a worker outlived its killed job"


def test_two_jobs_at_once_both_finish(client: TestClient) -> None:
    jobs = client.app.state.jobs
    before = set(jobs.running)  # a job another test left may still be stopping
    forms = [{**POSITION, "samples": "30", "seed": "1"}, {**POSITION, "samples": "30", "seed": "2"}]
    with client.websocket_connect("/ws/wiezen") as first, client.websocket_connect("/ws/wiezen") as second:
        sockets = (first, second)
        for ws, form in zip(sockets, forms, strict=True):
            ws.send_text(json.dumps(form))
            assert ws.receive_json()["type"] == "started"
        assert len(jobs.running - before) == 2  # side by side, each in its own process
        results = []
        for ws in sockets:
            notes = []
            while (message := ws.receive_json())["type"] == "progress":
                notes += [message["note"]] if "note" in message else []
            results.append(message)
            assert len(notes) == 2 and all(" leads " in note for note in notes), notes  # after 8 and 16 deals
    for result, seed in zip(results, (1, 2), strict=True):
        assert result["type"] == "result"
        direct = advise(EXAMPLE["hand"], EXAMPLE["seat"], EXAMPLE["turned"], samples=30, seed=seed, n_jobs=1)
        assert result["advice"]["contracts"] == finite(direct.to_dict())["contracts"]


def test_on_progress_counts_the_deals_and_changes_nothing() -> None:
    seen: list[int] = []
    position = (EXAMPLE["hand"], EXAMPLE["seat"], EXAMPLE["turned"])
    options = {"samples": 30, "seed": 4, "contracts": ("solo", "miserie"), "progress": False}
    rounds: list[tuple[int, str]] = []
    with_hook = advise(*position, n_jobs=1, batch_size=12, on_progress=seen.append,
                       on_round=lambda done, note: rounds.append((done, note)), **options)  # fmt: skip
    assert seen == [8, 16, 28, 30]  # the rounds end at 8, 16 and 30 deals; batches of at most 12 within them
    # the stop rule judged the rounds before the last (it may stop from 32 deals on): how far it was, in words
    assert [done for done, _ in rounds] == [8, 16] and all(" leads " in note for _, note in rounds), rounds
    without = advise(*position, n_jobs=1, **options)
    assert with_hook.to_dict() == without.to_dict()


def test_the_round_the_run_stops_at_is_told_too() -> None:
    """The page showed the last unsettled note ("intervals ±0.06 (needs ±0.05)") until the answer came."""
    rounds: list[tuple[int, str]] = []
    advice = advise(EXAMPLE["hand"], EXAMPLE["seat"], EXAMPLE["turned"], samples=1000, seed=1, n_jobs=1,
                    progress=False, on_round=lambda done, note: rounds.append((done, note)))  # fmt: skip
    assert advice.meta["stopped_early"] and rounds[-1][0] == advice.meta["deals"], rounds
    assert rounds[-1][1].endswith(": settled, the run stops") and len(rounds) > 1
    assert not any("settled" in note for _, note in rounds[:-1])


def test_ev_interval_is_the_t_interval_of_the_settlements() -> None:
    """Solo pays by tricks (RULES.md 1.6): its EV row is the t-interval of the settlements of its trick counts."""
    position = (EXAMPLE["hand"], EXAMPLE["seat"], EXAMPLE["turned"])  # eldest: seat 0
    advice = advise(*position, samples=30, seed=4, n_jobs=1, progress=False, contracts=("vraag", "solo"))
    (i,) = np.flatnonzero(advice.table.contract == "solo")
    row = advice.table.iloc[i]  # over its own n deals (the stop rule may drop solo at a look)
    counts = np.rint(advice.distribution.iloc[i].to_numpy() * row.n).astype(int)  # deals per trick count 0..13
    pays = [settle(get_rules("tempelaere"), "solo", (0,), tricks)[0] for tricks in range(14)]
    assert (row.ev_units, row.ev_low, row.ev_high) == pytest.approx(mean_interval(np.repeat(pays, counts)))
    assert row.ev_low < row.ev_high
    vraag_seats = advice.table[advice.table.partner.isin([1, 2, 3])]  # no EV: the partner decides
    assert vraag_seats[["ev_units", "ev_low", "ev_high"]].isna().all().all()


def test_one_computation_more_than_allowed_is_told_the_server_is_busy() -> None:
    with TestClient(create_app(n_jobs=1, max_running=1)) as client:
        with client.websocket_connect("/ws/wiezen") as first:
            first.send_text(json.dumps({**POSITION, **CLOSE_CALL}))
            assert first.receive_json()["type"] == "started"
            second = _run(client, "wiezen", POSITION)
            assert second == [{"type": "error", "message": "the server is busy: 1 computations are running (at most 1 "
                               "at once); stop one, or try again when one has finished"}]  # fmt: skip
            first.send_text("stop")
            while (message := first.receive_json())["type"] == "progress":
                pass
            assert message["type"] == "stopped"  # with the result over the deals finished, if any
        assert _run(client, "wiezen", POSITION)[-1]["type"] == "result"  # the stopped one no longer counts
        # a finished job is out of the count before its page hears the result: the next run may start at once
        assert not client.app.state.jobs.running
        assert _run(client, "wiezen", POSITION)[-1]["type"] == "result"
    with pytest.raises(ValueError, match="max-running must be at least 1, got 0"):
        create_app(max_running=0)


def test_a_misere_answer_under_double_dummy_points_to_the_pimc_method() -> None:
    """As the CLI's report (tests/test_advice_report.py): the summary names the page's PIMC method for a misère."""

    def advice(p_success: float, method: str) -> Advice:
        row = {"contract": "miserie", "trump": None, "partner": None, "p_success": p_success, "ev_units": 1.0, "n": 8}
        rec = {"contract": "miserie", "trump": None, "ev_units": 1.0}
        return Advice(pd.DataFrame([row]), pd.DataFrame(), rec, None, 1.0, {"method": method, "deals": 8})

    assert f'the method "{METHOD_WORDS["pimc"]}"' in summary(advice(0.5, "dd"))
    assert "PIMC" not in summary(advice(0.0, "dd")) and "PIMC" not in summary(advice(0.5, "pimc"))

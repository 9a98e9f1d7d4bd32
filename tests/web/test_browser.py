"""Browser tests: headless system Chromium drives the real pages against a live server."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from snakelab.web import create_app
from tests.web.conftest import REPLAY_GAMES, LiveServer

pytestmark = [pytest.mark.browser]

READY = "body[data-ready='1']"


def board_step(page: Any) -> int:
    return int(page.get_attribute("#board", "data-step"))


def canvas_image(page: Any) -> str:
    return str(page.eval_on_selector("#board", "c => c.toDataURL()"))


def wait_step(page: Any, at_least: int) -> None:
    page.wait_for_function(f"Number(document.querySelector('#board').dataset.step) >= {at_least}")


def summary_value(page: Any, label: str) -> str:
    return str(
        page.eval_on_selector(
            "#summary",
            "(t, label) => { for (const r of t.rows)"
            " if (r.cells[0].textContent === label) return r.cells[1].textContent; return null; }",
            label,
        )
    )


def test_page_loads(page: Any, server: LiveServer) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector(READY)
    assert "snakelab" in page.title()
    options = page.eval_on_selector_all("#game-select option", "os => os.map(o => o.value)")
    assert "classic" in options
    assert page.input_value("#game-string") == "classic(width=12,height=12)"
    assert page.is_hidden("#error")
    # Agents with parameters (external bots) are typed in full after choosing "other…".
    assert page.is_hidden("#seat-0-custom")
    page.select_option("#seat-0", "__other__")
    assert page.is_visible("#seat-0-custom")
    assert page.js_errors == []


def test_live_classic_game_moves(page: Any, server: LiveServer) -> None:
    page.goto(server.url + "/?game=classic&fps=40")
    page.wait_for_selector(READY)
    page.select_option("#seat-0", "classic.hamilton")
    page.click("#start")
    wait_step(page, 2)
    first = canvas_image(page)
    step_before = board_step(page)
    wait_step(page, step_before + 5)
    assert canvas_image(page) != first, "the board did not change while steps advanced"
    # Pause holds the game; Step advances it by exactly one frame.
    page.click("#pause")
    page.wait_for_selector("#pause:has-text('Resume')")
    time.sleep(0.3)
    held = board_step(page)
    time.sleep(0.3)
    assert board_step(page) == held
    page.click("#step")
    wait_step(page, held + 1)
    time.sleep(0.2)
    assert board_step(page) == held + 1
    # The keyboard does the same while watching: Space resumes and pauses, "." steps.
    page.locator("#board").focus()
    page.keyboard.press(" ")
    page.wait_for_selector("#pause:has-text('Pause')")
    wait_step(page, held + 3)
    page.keyboard.press(" ")
    page.wait_for_selector("#pause:has-text('Resume')")
    time.sleep(0.3)
    held = board_step(page)
    page.keyboard.press(".")
    wait_step(page, held + 1)
    # Restart begins again from step 0 of the same seed (at 40 steps/s the page may
    # never paint steps 0 and 1, so the first frame's step is what is checked).
    started = page.get_attribute("#board", "data-started")
    page.click("#restart")
    page.wait_for_function(f"document.querySelector('#board').dataset.started !== '{started}'")
    page.wait_for_function("document.querySelector('#board').dataset.firstStep !== undefined")
    assert page.get_attribute("#board", "data-first-step") == "0"
    assert page.js_errors == []


def test_human_classic_responds_to_keys(page: Any, server: LiveServer) -> None:
    page.goto(server.url + "/?game=classic")
    page.wait_for_selector(READY)
    # A wide board: at 6 steps/s the snake needs six seconds to reach the right wall.
    page.fill("#game-string", "classic(width=40,height=12,start_x=1,start_y=1)")
    page.select_option("#seat-0", "human")
    page.click("#start")
    page.wait_for_function("document.querySelector('#board').dataset.step === '0'")
    time.sleep(0.4)
    assert board_step(page) == 0, "a human game must wait for the first key"
    page.keyboard.press("ArrowRight")
    wait_step(page, 1)
    page.wait_for_function("document.querySelector('#summary').textContent.includes('RIGHT')")
    page.keyboard.press("ArrowDown")
    page.wait_for_function("document.querySelector('#summary').textContent.includes('DOWN')")
    assert summary_value(page, "heading") == "DOWN"
    assert page.js_errors == []


# A label each game's own drawer puts in the state panel (the generic fallback has none of them).
SUMMARY_LABEL = {
    "classic": "length",
    "blind": "visited",
    "arena": "alive",
    "snakgame": "your score",
    "hextris": "move score",
}


def test_human_arena_plays_at_real_speed_with_keys(page: Any, server: LiveServer) -> None:
    page.goto(server.url + "/?game=arena")
    page.wait_for_selector(READY)
    page.fill("#game-string", "arena(game_width=24,game_height=24,speed=100)")
    page.select_option("#seat-0", "human")
    for seat in (1, 2, 3):
        page.select_option(f"#seat-{seat}", "arena.greedy")
    page.click("#start")
    wait_step(page, 2)
    assert page.eval_on_selector("#board", "c => JSON.parse(c.dataset.actions)[0]") == 5  # straight until a key
    t0, s0 = time.monotonic(), board_step(page)
    page.keyboard.press("a")
    page.wait_for_function("JSON.parse(document.querySelector('#board').dataset.actions)[0] === 2")
    page.keyboard.press("ArrowUp")
    page.wait_for_function("JSON.parse(document.querySelector('#board').dataset.actions)[0] === 0")
    wait_step(page, s0 + 8)
    rate = (board_step(page) - s0) / (time.monotonic() - t0)
    assert 2 < rate < 14, f"{rate:.1f} steps/s; the game's own speed is 10"
    assert summary_value(page, "alive").endswith("/ 4")
    assert page.js_errors == []


def test_human_hextris_keys_send_commands(page: Any, server: LiveServer) -> None:
    page.goto(server.url + "/?game=hextris")
    page.wait_for_selector(READY)
    page.fill("#game-string", "hextris(problem=1,source_length=2)")
    page.select_option("#seat-0", "human")
    page.click("#start")
    page.wait_for_function("document.querySelector('#board').dataset.step === '0'")
    assert summary_value(page, "move score") == "0"
    assert summary_value(page, "power score") == "0"
    page.keyboard.press("x")  # south-east: canonical character "l"
    wait_step(page, 1)
    page.keyboard.press("z")  # south-west: "a"
    wait_step(page, 2)
    assert summary_value(page, "commands") == "la"
    # Typed text plays one command per character, so a human can spell phrases of power.
    page.fill("#type-commands", "ei!")
    page.press("#type-commands", "Enter")
    wait_step(page, 5)
    assert summary_value(page, "commands") == "laei!"
    page.wait_for_function("document.querySelector('#summary').textContent.toLowerCase().includes('“ei!” ×1')")
    assert int(summary_value(page, "power score")) == 2 * 3 + 300
    assert page.js_errors == []


@pytest.mark.parametrize("game_id", sorted(REPLAY_GAMES))
def test_replay_opens_and_steps(page: Any, server: LiveServer, game_id: str) -> None:
    page.goto(f"{server.url}/replays?path={game_id}.jsonl")
    page.wait_for_selector(READY)
    assert page.is_hidden("#error"), page.text_content("#error")
    assert page.get_attribute("#board", "data-game") == game_id
    assert board_step(page) == 0
    assert summary_value(page, SUMMARY_LABEL[game_id]) not in ("None", "")
    start = canvas_image(page)
    page.keyboard.press("ArrowRight")
    assert board_step(page) == 1
    page.keyboard.press("End")
    last = board_step(page)
    assert last > 1
    assert canvas_image(page) != start
    assert page.text_content("#step-label") == f"step {last} / {last}"
    assert page.text_content("#outcome")
    # The slider scrubs back; the events of the shown step are listed.
    page.fill("#scrub", "1")
    page.dispatch_event("#scrub", "input")
    assert board_step(page) == 1
    assert page.locator("#events li").count() >= 1
    assert page.locator("#timeline li").count() >= 1
    if game_id == "classic":
        # The shortcut agent's Hamiltonian cycle is drawn under the snake, and can be hidden.
        with_cycle = canvas_image(page)
        page.uncheck("#show-overlay")
        assert canvas_image(page) != with_cycle
    else:
        assert page.is_hidden("#show-overlay")
    assert page.js_errors == []


def test_large_replay_fetches_states_as_it_scrubs(page: Any, server: LiveServer, monkeypatch: Any) -> None:
    from snakelab.web import replays

    monkeypatch.setattr(replays, "LAZY_STATE_BYTES", 0)  # the server runs in this process
    page.goto(f"{server.url}/replays?path=classic.jsonl")
    page.wait_for_selector(READY)
    assert "large" in page.text_content("#replay-game")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    wait_step(page, 2)
    page.wait_for_function("document.querySelector('#summary').textContent.includes('2')")
    assert summary_value(page, "steps") == "2"
    page.keyboard.press("End")
    last = int(page.get_attribute("#board", "data-frames")) - 1
    wait_step(page, last)
    assert summary_value(page, "steps") == str(last)
    assert page.is_hidden("#error")
    assert page.js_errors == []


def test_sparse_replay_is_resimulated(page: Any, server: LiveServer) -> None:
    page.goto(f"{server.url}/replays?path=sparse/classic-sparse.jsonl&step=3")
    page.wait_for_selector(READY)
    assert "re-simulated" in page.text_content("#replay-game")
    assert board_step(page) == 3  # a link can open a replay at a step
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert board_step(page) == 2
    assert summary_value(page, "steps") == "2"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("broken.jsonl", "not valid JSON"),
        ("not-a-replay.jsonl", "not a snakelab replay"),
    ],
)
def test_malformed_replay_shows_error(page: Any, server: LiveServer, name: str, message: str) -> None:
    page.goto(f"{server.url}/replays?path={name}")
    page.wait_for_selector(READY)
    assert page.is_visible("#error")
    assert message in page.text_content("#error")
    assert board_step(page) == -1


def test_escaping_replay_path_shows_refusal(page: Any, server: LiveServer) -> None:
    page.goto(f"{server.url}/replays?path=../x.jsonl")
    page.wait_for_selector(READY)
    assert "leaves the replay folder" in page.text_content("#error")


def test_uploaded_replay_opens(page: Any, server: LiveServer, replay_dir: Any) -> None:
    page.goto(f"{server.url}/replays")
    page.wait_for_selector(READY)
    assert page.locator("#replay-list li", has_text="classic.jsonl").count() == 1
    page.set_input_files("#upload", str(replay_dir / "classic.jsonl"))
    page.wait_for_function("document.querySelector('#board').dataset.step === '0'")
    assert page.text_content("#replay-name") == "classic.jsonl"
    page.click("#next")
    assert board_step(page) == 1


def test_results_page_lists_runs_and_ratings(page: Any, server: LiveServer) -> None:
    page.goto(f"{server.url}/results")
    page.wait_for_selector(READY)
    assert "run #1 · web test run · 3/3 matches" in page.text_content("h3.run")
    rows = page.eval_on_selector_all(
        "table.ratings:last-of-type tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))"
    )
    by_agent = {r[1]: r for r in rows[1:]}
    assert by_agent["classic.hamilton"][2:5] == ["2", "2", "100.0 %"]
    assert by_agent["classic.random"][3] == "0"
    assert "μ ± 2σ" in rows[0]  # the ladder's skill interval


def test_results_page_without_store(page: Any, replay_dir: Path, tmp_path: Path) -> None:
    with LiveServer(create_app(replay_dir, tmp_path / "absent.sqlite")) as other:
        page.goto(f"{other.url}/results")
        page.wait_for_selector(READY)
        assert "No results store is configured" in page.text_content("#no-store")


def frame_times(page: Any) -> dict[int, float]:
    """Arrival time (ms) of each recent frame in the page, by step."""
    pairs = page.eval_on_selector("#board", "c => JSON.parse(c.dataset.frameTimes || '[]')")
    return {int(step): float(t) for step, t in pairs}


def test_first_human_key_moves_the_snake_one_step(page: Any, server: LiveServer) -> None:
    page.goto(server.url + "/?game=classic")
    page.wait_for_selector(READY)
    page.fill("#game-string", "classic(width=30,height=12,start_x=3,start_y=3)")
    page.select_option("#seat-0", "human")
    page.click("#start")
    page.wait_for_function("document.querySelector('#board').dataset.step === '0'")
    assert page.text_content("#fps-label") == "6"  # the pace a human game really runs at
    # Two steps a second: the step after the first key is due half a second after it.
    page.eval_on_selector("#fps", "s => { s.value = '2'; s.dispatchEvent(new Event('input')); }")
    time.sleep(1.5)  # a player looking at the board before the first key
    page.locator("#board").focus()
    page.keyboard.press("ArrowDown")
    wait_step(page, 2)
    times = frame_times(page)
    # Waiting for the key is not time to catch up on: no burst of steps after it.
    assert times[2] - times[1] > 250, times
    assert page.js_errors == []


def test_switching_through_the_games_logs_no_console_error(page: Any, server: LiveServer) -> None:
    console_errors: list[str] = []
    page.on("console", lambda msg: console_errors.append(msg.text) if msg.type == "error" else None)
    page.goto(server.url + "/")
    page.wait_for_selector(READY)
    # Twice round, starting each game as soon as the previous one shows its first frame,
    # so frames of one game arrive while the next game's drawer loads.
    for game_id in ["classic", "blind", "arena", "snakgame", "hextris"] * 2:
        page.select_option("#game-select", game_id)
        page.fill("#seed", "3")
        page.click("#start")
        page.wait_for_function(
            "id => (document.querySelector('#board').dataset.game || '').startsWith(id)"
            " && Number(document.querySelector('#board').dataset.step) >= 0",
            arg=game_id,
        )
        assert page.is_hidden("#error"), page.text_content("#error")
        assert summary_value(page, SUMMARY_LABEL[game_id]) not in ("None", "")
    page.click("#pause")
    assert console_errors == []
    assert page.js_errors == []


def test_replay_address_carries_the_step_and_speed(page: Any, server: LiveServer) -> None:
    page.goto(f"{server.url}/replays?path=arena.jsonl")
    page.wait_for_selector(READY)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("location.search.includes('step=2')")
    page.eval_on_selector("#fps", "s => { s.value = '25'; s.dispatchEvent(new Event('input')); }")
    page.wait_for_function("location.search.includes('fps=25')")
    # Arena moves are shown by name, not as protocol integers.
    actions = page.text_content("#events li.note")
    assert any(name in actions for name in ("up", "down", "left", "right", "straight")), actions
    # The copied address opens the same step at the same speed.
    copied = page.evaluate("location.href")
    other = page.context.new_page()
    other.goto(copied)
    other.wait_for_selector(READY)
    assert int(other.get_attribute("#board", "data-step")) == 2
    assert other.text_content("#fps-label") == "25"
    other.close()
    # A step that is no number is said in words, and the replay still opens.
    page.goto(f"{server.url}/replays?path=arena.jsonl&step=abc")
    page.wait_for_selector(READY)
    assert "not a step number" in page.text_content("#error")
    assert board_step(page) == 0
    assert page.js_errors == []


def test_truncated_replay_opens_in_the_page(page: Any, server: LiveServer) -> None:
    page.goto(f"{server.url}/replays?path=truncated.jsonl")
    page.wait_for_selector(READY)
    assert page.is_hidden("#error"), page.text_content("#error")
    assert "truncated" in page.text_content("#replay-game")
    page.keyboard.press("End")
    assert board_step(page) == 3


def no_horizontal_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    assert width <= inner, f"the page is {width} px wide in a {inner} px window"


def test_narrow_screen_has_no_horizontal_scroll(browser: Any, server: LiveServer) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(server.url + "/?game=arena")
        page.wait_for_selector(READY)
        for seat in range(4):
            page.select_option(f"#seat-{seat}", "arena.greedy")
        page.click("#start")
        wait_step(page, 1)
        no_horizontal_scroll(page)
        page.goto(f"{server.url}/replays?path=hextris.jsonl")
        page.wait_for_selector(READY)
        page.keyboard.press("End")
        no_horizontal_scroll(page)
        # State labels stay on one line.
        heights = page.eval_on_selector_all(
            "#summary td:first-child", "cs => cs.map(c => c.getBoundingClientRect().height)"
        )
        assert max(heights) < 2 * min(heights), heights
    finally:
        context.close()


def test_contest_size_snakgame_fits_the_view(page: Any, server: LiveServer) -> None:
    page.goto(server.url + "/?game=snakgame")
    page.wait_for_selector(READY)
    page.fill("#game-string", "snakgame(type=0,rows=532,cols=526)")
    page.select_option("#seat-0", "snakgame.exit")
    page.click("#start")
    page.wait_for_function("document.querySelector('#board').dataset.ended === '1'")
    page.wait_for_function("document.querySelector('#board').getBoundingClientRect().width > 200")
    box = page.eval_on_selector("#board", "c => { const r = c.getBoundingClientRect(); return [r.right, r.bottom]; }")
    assert box[0] <= page.evaluate("window.innerWidth")
    no_horizontal_scroll(page)
    # Zoomed in, the board scrolls inside its frame; the page keeps its width.
    fitted = page.eval_on_selector("#board", "c => c.getBoundingClientRect().width")
    page.click("#zoom-in")
    page.click("#zoom-in")
    page.wait_for_function(f"document.querySelector('#board').getBoundingClientRect().width > {fitted * 1.5}")
    assert page.text_content("#zoom-label") == "2×"
    no_horizontal_scroll(page)
    page.click("#zoom-fit")
    assert page.text_content("#zoom-label") == "fit"
    assert page.js_errors == []


def test_results_page_measures_a_snakgame_bench_by_score(page: Any, replay_dir: Path, tmp_path: Path) -> None:
    from snakelab.harness.match import MatchSpec, run_match
    from snakelab.harness.store import open_store

    path = tmp_path / "bench.sqlite"
    game = "snakgame(type=0,rows=8,cols=9)"
    pairs = [("snakgame.greedy", 1), ("snakgame.editorial", 1), ("snakgame.greedy", 2), ("snakgame.editorial", 2)]
    specs = [MatchSpec(game, (agent,), seed, index=i) for i, (agent, seed) in enumerate(pairs)]
    with open_store(path) as store:
        run_id = store.create_run(specs, "snakgame bench", command="pytest")
        for i, spec in enumerate(specs):
            store.add_match(run_id, i, spec, run_match(spec))
    with LiveServer(create_app(replay_dir, path)) as other:
        page.goto(f"{other.url}/results")
        page.wait_for_selector(READY)
        heads = page.eval_on_selector("table.ratings tr", "r => [...r.cells].map(c => c.textContent)")
        rows = page.eval_on_selector_all(
            "table.ratings:last-of-type tr[data-measure]", "rs => rs.map(r => [...r.cells].map(c => c.textContent))"
        )
    assert "wins" not in heads and "win rate" not in heads
    assert "score ratio" in heads
    by_agent = {r[1]: dict(zip(heads, r, strict=True)) for r in rows}
    assert by_agent["snakgame.editorial"]["score ratio"] == "1.000 × snakgame.editorial"
    assert by_agent["snakgame.greedy"]["score ratio"].endswith("× snakgame.editorial")
    assert page.js_errors == []


def label_pace(page: Any) -> float:
    """The pace the page's speed label says, in steps per second."""
    return float(page.text_content("#fps-label"))


@pytest.mark.parametrize("game_id", ["classic", "blind", "arena", "snakgame", "hextris"])
def test_each_default_line_up_plays_at_the_pace_its_label_shows(page: Any, server: LiveServer, game_id: str) -> None:
    # The game as a newcomer starts it: pick it, keep the seats the page offers, Start.
    page.goto(server.url + f"/?game={game_id}")
    page.wait_for_selector(READY)
    page.click("#start")
    wait_step(page, 3)
    # Steps shown per second, as a person watching would count them over three seconds.
    t0, s0 = time.monotonic(), board_step(page)
    time.sleep(3.0)
    t1, s1 = time.monotonic(), board_step(page)
    shown = (s1 - s0) / (t1 - t0)
    said = label_pace(page)
    ended = page.get_attribute("#board", "data-ended") == "1"
    assert not ended, "the game ended while its pace was measured; give it a bigger board"
    # Tolerant, so that a loaded machine does not fail it: the label and what the page shows
    # agree within a factor of two (a label saying 10 over a game creeping at 0.3 does not).
    assert said / 2 <= shown <= said * 2, f"{game_id}: the label says {said} steps/s, the page shows {shown:.2f}"
    # And the game keeps roughly the pace it was asked for (the slider; arena's own pace):
    # its built-in agents think within the time a step has.
    asked = float(page.input_value("#fps"))
    assert shown >= asked / 4, f"{game_id}: asked {asked} steps/s, the page shows {shown:.2f}"
    assert page.is_hidden("#error"), page.text_content("#error")
    assert page.js_errors == []

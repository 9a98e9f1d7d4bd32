"""The step-wise match driver: fed seats, slices and errors give the same games as ``play``."""

from __future__ import annotations

import asyncio
import json

import pytest

from snakelab import make, make_agent
from snakelab.core.errors import IllegalActionError, SnakelabError
from snakelab.core.rng import derive_seed
from snakelab.harness.match import Match, OwnRules, play


def _replay_lines(path):
    """Replay lines without the header keys that change with every run."""
    out = []
    for line in path.read_text().splitlines():
        obj = json.loads(line)
        obj.pop("created", None)
        obj.pop("snakelab", None)
        out.append(obj)
    return out


async def _drive_like_live_view(game, agent_names, seed, external_seat, replay):
    """Drive a Match as the web live view does: agents think in a worker thread, one seat is fed."""
    outsider = make_agent(agent_names[external_seat])  # stands in for a person or a remote program
    outsider.reset(game.info, external_seat, derive_seed(seed, "agent", external_seat))
    agents = [None if i == external_seat else make_agent(a) for i, a in enumerate(agent_names)]
    frames = []
    match = Match(
        game, agents, seed, agent_names=agent_names, replay=replay, on_step=lambda st, ev: frames.append(len(ev))
    )
    match.start()
    try:
        while not match.over:
            await asyncio.sleep(0)  # the live view's pacing and pause live here
            for p in match.waiting():
                if match.external(p):
                    match.feed(p, outsider.act(match.state.observe(p), None))
                else:
                    await asyncio.to_thread(match.decide, p)
            match.step()
        return match.finish(), frames
    finally:
        match.close()
        outsider.close()


@pytest.mark.parametrize(
    ("game", "agents", "seed", "seat"),
    [
        ("arena(duration=10,game_height=10,game_width=10,num_snakes=2,num_zombies=1)", ["arena.greedy"] * 2, 3, 1),
        (
            "arena(duration=8,game_height=12,game_width=12,num_snakes=3)",
            ["arena.random", "arena.greedy", "arena.random"],
            5,
            0,
        ),
        ("snakgame(type=0,rows=6,cols=7)", ["snakgame.greedy"], 2, 0),
        ("classic(width=6,height=6)", ["classic.greedy"], 4, 0),
    ],
)
def test_fed_seat_gives_the_replay_of_play(tmp_path, game, agents, seed, seat):
    g = make(game)
    batch = play(g, [make_agent(a) for a in agents], seed, agent_names=agents, replay=tmp_path / "batch.jsonl")
    live, frames = asyncio.run(_drive_like_live_view(g, agents, seed, seat, tmp_path / "live.jsonl"))
    assert _replay_lines(tmp_path / "live.jsonl") == _replay_lines(tmp_path / "batch.jsonl")
    assert (live.steps, live.outcome, live.agents) == (batch.steps, batch.outcome, batch.agents)
    assert len(frames) == batch.steps + 1 and frames[0] == 0  # the initial call, then one per step


def test_run_in_slices_equals_one_run(tmp_path):
    g = make("arena(duration=6,game_height=10,game_width=10,num_snakes=2)")
    names = ["arena.greedy", "arena.random"]
    whole = play(g, [make_agent(a) for a in names], 7, agent_names=names, replay=tmp_path / "a.jsonl")
    with Match(g, [make_agent(a) for a in names], 7, agent_names=names, replay=tmp_path / "b.jsonl") as m:
        played = 0
        while not m.over:
            played += m.run(5)  # pause every five steps
        sliced = m.finish()
    assert played == whole.steps == sliced.steps
    assert _replay_lines(tmp_path / "a.jsonl") == _replay_lines(tmp_path / "b.jsonl")


def test_single_player_fast_path_in_slices():
    g = make("classic(width=6,height=6)")
    whole = play(g, [make_agent("classic.hamilton")], 3)
    m = Match(g, [make_agent("classic.hamilton")], 3)
    assert m.run(10) == 10 and m.steps == 10 and not m.over
    m.run()
    assert m.finish().outcome == whole.outcome and m.steps == whole.steps


def test_illegal_fed_action_leaves_state_and_can_be_corrected():
    g = make("classic(width=5,height=5,start_length=3)")
    m = Match(g, [None], 1, agent_names=["person"])
    m.start()
    before = json.dumps(m.state.to_json(), sort_keys=True)
    legal = list(m.state.legal_actions(0))
    illegal = next(a for a in g.candidate_actions(m.state, 0) if a not in legal)
    m.feed(0, illegal)
    with pytest.raises(IllegalActionError) as err:
        m.step()
    assert json.dumps(m.state.to_json(), sort_keys=True) == before and m.steps == 0
    message = str(m.blame(err.value))
    assert "seed 1, step 1" in message and "player 0 (person)" in message
    m.feed(0, legal[0])
    m.step()
    assert m.steps == 1 and m.last_actions == [legal[0]]
    m.close()


def test_unfed_external_seat_and_non_movers_are_refused():
    g = make("snakgame(type=0,rows=4,cols=4)")
    m = Match(g, [None], 1)
    with pytest.raises(SnakelabError, match="external seat"):
        m.step()
    with pytest.raises(SnakelabError, match="does not move"):
        m.feed(1, None)
    with pytest.raises(SnakelabError, match="external seat"):
        m.decide(0)
    m.close()


def test_measure_records_agent_and_fed_times():
    g = make("arena(duration=3,game_height=8,game_width=8,num_snakes=2)")
    outsider = make_agent("arena.greedy")
    outsider.reset(g.info, 1, derive_seed(4, "agent", 1))
    m = Match(g, [make_agent("arena.greedy"), None], 4, measure=True)
    while not m.over:
        for p in m.waiting():
            if m.external(p):
                m.feed(p, outsider.act(m.state.observe(p), None), seconds=0.25)
        m.step()
    result = m.finish()
    assert len(result.move_times[0]) > 0 and all(t >= 0 for t in result.move_times[0])
    assert result.move_times[1] and set(result.move_times[1]) == {0.25}


def test_judge_style_step_function_and_external_program(tmp_path):
    """The SNAKGAME judge's way: the program is an external seat and the judge applies its own step."""
    g = make("snakgame(type=0,rows=6,cols=7)")
    names = ["snakgame.greedy"]
    batch = play(g, [make_agent(names[0])], 5, agent_names=names, replay=tmp_path / "batch.jsonl")
    program = make_agent(names[0])
    program.reset(g.info, 0, derive_seed(5, "agent", 0))
    chef_moves = []

    def judge_step(state, actions):
        events = state.play_mine(actions[0])
        if not state.is_over():
            reply, more = state.chef_reply(None)
            chef_moves.append(reply)
            events += more
        return events

    match = Match(
        g, [None], 5, agent_names=names, replay=tmp_path / "judged.jsonl", own=OwnRules(apply=judge_step), measure=True
    )
    match.start()
    while not match.over:
        match.feed(0, program.act(match.state.observe(0), None), seconds=0.001)
        match.step()
    judged = match.finish()
    assert _replay_lines(tmp_path / "judged.jsonl") == _replay_lines(tmp_path / "batch.jsonl")
    assert judged.outcome == batch.outcome and len(judged.move_times[0]) == judged.steps
    assert chef_moves  # Chef answered through the judge's own step function


def test_close_before_the_end_leaves_a_truncated_replay(tmp_path):
    from snakelab.core.errors import ReplayError
    from snakelab.core.replay import read_replay

    g = make("classic(width=6,height=6)")
    match = Match(g, [make_agent("classic.greedy")], 1, replay=tmp_path / "r.jsonl")
    match.run(3)
    match.close()
    with pytest.raises(ReplayError, match="truncated"):
        read_replay(tmp_path / "r.jsonl")

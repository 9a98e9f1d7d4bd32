"""The arena step is its pipeline of named stages: order, and variants that replace one."""

import pytest

from snakelab import make
from snakelab.games.arena import stages as st
from snakelab.games.arena.rules import STRAIGHT, Game
from snakelab.games.arena.stages import STAGES, replace_stage

GAME = "arena(game_width=12,game_height=12,duration=2,speed=50,num_zombies=2)"


def test_stages_are_named_in_spec_order():
    assert [s.__name__ for s in STAGES] == ["respawn", "move", "collide", "eat", "zombies", "age_apples"]


def test_a_step_runs_exactly_the_stages_in_order():
    base = make(GAME)
    calls: list[str] = []

    def logged(stage):
        def run(state, step):
            calls.append(stage.__name__)
            stage(state, step)

        run.__name__ = stage.__name__
        return run

    game = Game(base.config, tuple(logged(s) for s in STAGES))
    ref, s = base.new_state(5), game.new_state(5)
    n_steps = base.config.steps  # 40: the game ends on the last one
    for _ in range(n_steps):
        acts = [STRAIGHT] * 4
        assert ref.apply(acts) == s.apply(acts)
    assert s.to_json() == ref.to_json() and s.is_over()
    one = ["move", "collide", "eat", "zombies", "age_apples", "respawn"]
    # Every step runs the stages after the first, then the next step's first stage;
    # after the last step there is no next step.
    assert calls == one * (n_steps - 1) + one[:-1]


def test_replacing_one_stage_changes_only_that_rule():
    still = Game(make(GAME).config, replace_stage(STAGES, "zombies", lambda state, step: None))
    moving = make(GAME)
    a, b = still.new_state(3), moving.new_state(3)
    start = [list(z) for z in a.zombies]
    assert start == [list(z) for z in b.zombies]
    for _ in range(3):
        a.apply([STRAIGHT] * 4)
        b.apply([STRAIGHT] * 4)
    assert [list(z) for z in a.zombies] == start  # the variant's zombies never move
    assert [list(z) for z in b.zombies] != start


def test_a_replaced_stage_keeps_its_place_and_an_unknown_name_is_refused():
    def eat(state, step):
        del state, step

    variant = replace_stage(STAGES, "eat", eat)
    assert [s.__name__ for s in variant] == [s.__name__ for s in STAGES]
    assert variant[3] is eat and variant[:3] == STAGES[:3] and variant[4:] == STAGES[4:]
    assert st.eat is STAGES[3]
    with pytest.raises(ValueError, match="no arena stage 'grow'"):
        replace_stage(STAGES, "grow", eat)

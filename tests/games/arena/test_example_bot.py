import sys
from pathlib import Path

from snakelab import make, make_agent
from snakelab.harness import play
from snakelab.harness.arena_bot import BotAgent, BotOptions, processes_in_group

EXAMPLE = Path(__file__).parents[3] / "examples" / "arena_bot.py"


def test_starter_bot_plays_a_clean_game(tmp_path):
    game = make("arena(game_width=20,game_height=20,duration=3,speed=20,num_obstacles=2)")  # 150 steps
    bot = BotAgent(str(EXAMPLE), BotOptions(lockstep=True, timeout_s=5, run_dir=str(tmp_path), python=sys.executable))
    agents = [bot] + [make_agent("arena.greedy") for _ in range(3)]
    res = play(game, agents, 3)
    d = res.outcome.details
    assert res.steps == 150
    assert (d["timeouts"][0], d["invalid"][0], d["crashes"][0]) == (0, 0, 0)
    assert "step 100: move" in bot.log_path.read_text()
    assert bot.err_path.read_text() == ""
    assert processes_in_group(bot.pid) == []

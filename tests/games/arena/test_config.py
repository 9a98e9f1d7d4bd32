import pytest

from snakelab.core.errors import ConfigError
from snakelab.games.arena.config import (
    config_from_files,
    find_config_files,
    format_config,
    load_config_files,
    parse_config_text,
    seed_from_text,
)
from snakelab.games.arena.rules import Config


def test_keys_aliases_comments_and_blank_lines(tmp_path):
    f = tmp_path / "snake_config.txt"
    f.write_text("# snake_config.txt\n\nnum_snakes\t8\ngw 75   # wider\ngame_height 75\ngs 40\nrs hello\n")
    fc = load_config_files([f])
    assert fc.params == {"num_snakes": 8, "game_width": 75, "game_height": 75, "speed": 40}
    assert fc.seed == seed_from_text("hello") and fc.seed != seed_from_text("hello2")
    cfg = config_from_files(fc)
    assert isinstance(cfg, Config) and cfg.steps == 300 * 1000 // 40


def test_every_snake_config_file_is_found_and_later_files_win(tmp_path):
    (tmp_path / "a_snake_config").write_text("speed 40\nnum_zombies 1\n")
    (tmp_path / "b_snake_config.txt").write_text("speed 25\n")
    (tmp_path / "other.txt").write_text("speed 1\n")
    files = find_config_files(tmp_path)
    assert [f.name for f in files] == ["a_snake_config", "b_snake_config.txt"]
    fc = load_config_files(files)
    assert fc.params == {"speed": 25, "num_zombies": 1}


@pytest.mark.parametrize(
    ("text", "line", "key"),
    [
        ("speed 50\ncolour red\n", 2, "colour"),
        ("\n\nspeed fast\n", 3, "speed"),
        ("ns 1\n", 1, "ns"),
        ("# ok\nown_tail_kills maybe\n", 2, "own_tail_kills"),
        ("game_width\n", 1, "game_width"),
        ("d 0\n", 1, "d"),
    ],
)
def test_bad_key_or_value_names_file_line_and_key(tmp_path, text, line, key):
    f = tmp_path / "snake_config.txt"
    f.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config_files([f])
    msg = str(err.value)
    assert msg.startswith(f"{f}:{line}:") and repr(key) in msg


def test_a_bad_combination_names_the_files(tmp_path):
    f = tmp_path / "snake_config.txt"
    f.write_text("gw 8\ngh 8\n")
    with pytest.raises(ConfigError, match=r"snake_config\.txt:1"):
        load_config_files([f])
    fc = parse_config_text(f.read_text(), str(f))
    with pytest.raises(ConfigError, match=r"snake_config\.txt:1"):
        config_from_files(fc)


@pytest.mark.parametrize(
    "texts",
    [
        ["game_width 70\nstarting_length 60\n"],
        ["starting_length 60\n", "game_width 70\n"],  # the key it depends on comes in a later file
        ["gh 70\nsl 70\nns 2\nnz 0\n"],
    ],
)
def test_files_are_checked_as_a_whole(tmp_path, texts):
    files = []
    for i, text in enumerate(texts):
        files.append(tmp_path / f"{i}_snake_config.txt")
        files[-1].write_text(text)
    cfg = config_from_files(load_config_files(files))
    assert cfg.starting_length in (60, 70) and max(cfg.game_width, cfg.game_height) == 70


def test_a_combination_that_does_not_fit_names_every_line_involved(tmp_path):
    f = tmp_path / "snake_config.txt"
    f.write_text("speed 40\ngame_width 70\nstarting_length 80\n")
    with pytest.raises(ConfigError) as err:
        load_config_files([f])
    msg = str(err.value)
    assert f"{f}:2" in msg and f"{f}:3" in msg and "starting_length 80" in msg


def test_format_parse_round_trip():
    params = {"game_width": 30, "own_tail_kills": True, "speed": 20}
    fc = parse_config_text(format_config(params, seed=12))
    assert fc.params == params and fc.seed == 12


def test_integer_seeds_are_kept_and_text_is_hashed():
    assert seed_from_text("42") == 42
    assert seed_from_text("sameseed") == seed_from_text("sameseed") != seed_from_text("other")

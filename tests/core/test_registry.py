import pytest

from snakelab.core.errors import ConfigError, UnknownNameError
from snakelab.core.registry import format_spec, list_games, make, make_agent, parse_spec


def test_parse_spec__values():
    assert parse_spec("classic(width=20,height=3,tail_rule=strict,x='a,b',f=1.5,b=true,n=none)") == (
        "classic",
        {"width": 20, "height": 3, "tail_rule": "strict", "x": "a,b", "f": 1.5, "b": True, "n": None},
    )
    assert parse_spec("classic.hamilton-shortcut") == ("classic.hamilton-shortcut", {})


def test_format_spec__round_trip():
    kwargs = {"width": 20, "tail_rule": "strict", "s": "a b", "b": False}
    assert parse_spec(format_spec("g", kwargs)) == ("g", kwargs)


def test_make__parameters_and_canonical_name():
    game = make("classic(width=20,height=20)")
    assert game.info.name == "classic(height=20,width=20)" or game.info.name.startswith("classic(")
    assert make(game.info.name).info.name == game.info.name
    assert make("classic").info.name == "classic"


def test_make__errors_name_the_problem():
    with pytest.raises(UnknownNameError, match="unknown game 'nope'"):
        make("nope")
    with pytest.raises(ConfigError, match="unknown parameter 'widht'"):
        make("classic(widht=3)")
    with pytest.raises(ConfigError, match="expected an integer"):
        make("classic(width=abc)")
    with pytest.raises(ConfigError, match="0×5"):
        make("classic(width=0,height=5)")


def test_make_agent__unknown_and_known():
    assert make_agent("classic.hamilton") is not None
    with pytest.raises(UnknownNameError, match="unknown agent 'zzz'"):
        make_agent("classic.zzz")
    with pytest.raises(UnknownNameError, match=r"<game>\.<method>"):
        make_agent("hamilton")


def test_list_games__has_classic():
    assert "classic" in [g.id for g in list_games()]

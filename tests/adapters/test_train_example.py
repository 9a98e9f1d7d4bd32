import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_classic.py"


def test_train_classic_example__learns_to_beat_random(capsys):
    spec = importlib.util.spec_from_file_location("train_classic", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    scores = module.main(["--episodes", "150", "--eval", "20", "--size", "5"])
    out = capsys.readouterr().out
    assert out.count("episode ") == 10 and "greedy policy" in out
    assert scores["learned"] > scores["random"] + 1.0

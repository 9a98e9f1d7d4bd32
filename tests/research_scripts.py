"""Load a script of ``research/`` as a module, for the tests of the measurements kept there."""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

RESEARCH = Path(__file__).resolve().parents[1] / "research"


def load_research(name: str) -> ModuleType:
    """The module of ``research/<name>.py`` (loaded once; research scripts are no package)."""
    key = f"research_{name}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, RESEARCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    spec.loader.exec_module(module)
    return module

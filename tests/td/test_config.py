"""The TD's settings: the TOML file, the options over it, refusals; the example file."""

from __future__ import annotations

from pathlib import Path

import pytest

from icswire.td.config import ConfigError, TdConfig, load_config

EXAMPLE = Path(__file__).parents[2] / "docs" / "td.example.toml"


def test_the_example_file_is_the_defaults() -> None:
    assert load_config(EXAMPLE) == TdConfig()


def test_options_replace_the_file(tmp_path: Path) -> None:
    path = tmp_path / "td.toml"
    path.write_text('[server]\nuser = "Mamer"\n[tournament]\nkind = "arena"\nmanagers = ["ann"]\n')
    config = load_config(path, user=None, duration=3.0)
    assert (config.user, config.kind, config.duration, config.managers) == (
        "Mamer",
        "arena",
        3.0,
        ("ann",),
    )


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[bot]\n", "unknown table"),
        ("[tournament]\nspeed = 1\n", "unknown setting"),
        ('[tournament]\nkind = "knockout"\n', "not one of"),
        ("[tournament]\nrounds = 0\n", "must be positive"),
        ("[tournament\n", "is not TOML"),
    ],
)
def test_bad_settings_are_refused(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "td.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=said):
        load_config(path)

"""The bot's TOML settings: defaults, the documented example, and errors naming the key."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from icswire.bot.config import (
    BotConfig,
    ChallengeRules,
    ConfigError,
    DrawRules,
    EngineConfig,
    OfferRules,
    ResignRules,
    Seek,
    default_config,
    load_config,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "bot.example.toml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bot.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_smallest_file_is_the_engine_command_and_defaults(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[engine]\ncommand = ["stockfish"]\n'))
    assert config == default_config(["stockfish"])
    assert config.engine == EngineConfig(("stockfish",))
    assert (config.host, config.port, config.dialect, config.user) == (
        "127.0.0.1",
        5000,
        "fics",
        "guest",
    )
    assert config.challenges == ChallengeRules() and config.seeks == ()
    assert config.draw == DrawRules() and config.resign == ResignRules()
    assert config.offers == OfferRules() and config.reconnect and not config.kibitz


def test_the_documented_example_loads_with_every_table(tmp_path: Path) -> None:
    config = load_config(EXAMPLE)
    assert config.engine.command == ("/usr/games/stockfish",)
    assert config.engine.skill == 20 and config.engine.nodes == 200000
    assert config.engine.movetime == 10.0 and config.engine.book_depth == 20
    assert dict(config.engine.options) == {"Threads": 1, "Hash": 64}
    assert config.seeks == (Seek(5, 0), Seek(3, 2, variant="crazyhouse"))
    assert config.challenges.variants == ("chess",)
    assert config.draw == DrawRules() and config.offers == OfferRules()


def test_the_readmes_example_loads(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## A computer account", 1)[1]
    text = section.split("```toml\n", 1)[1].split("```", 1)[0]
    config = load_config(write(tmp_path, text))
    assert (config.user, config.engine.skill, config.owner) == ("Fishy", 10, "alice")
    assert config.challenges.variants == ("chess", "fr") and config.seeks == (Seek(3, 0),)


def test_every_key_the_dataclasses_have_is_in_the_example() -> None:
    text = EXAMPLE.read_text()
    tables: list[type] = [EngineConfig, ChallengeRules, Seek, DrawRules, ResignRules, OfferRules]
    names = {f.name for cls in tables for f in dataclasses.fields(cls)}
    names |= {f.name for f in dataclasses.fields(BotConfig)} - {
        "engine",
        "challenges",
        "seeks",
        "draw",
        "resign",
        "offers",
    }
    for name in names - {"options"}:
        assert f"\n{name} =" in text or f"# {name} =" in text, name
    assert "\n[engine.options]" in text


def test_a_full_file_is_read_into_every_field(tmp_path: Path) -> None:
    text = """
[server]
host = "chess.example.org"
port = 5001
dialect = "icc"
user = "RoboBot"
password = "pw"

[engine]
command = "sjeng --quiet"
protocol = "xboard"
options = { Hash = 32, Ponder = false, Style = "solid" }
skill = 3
nodes = 1000
depth = 8
movetime = 2
ponder = true
cwd = "run"
book = "~/book.bin"
book_depth = 8
tablebases = ["tb", "/abs/tb"]

[challenges]
accept = false
variants = ["chess", "crazyhouse", "suicide"]
min_base = 1
max_base = 15.5
min_increment = 0
max_increment = 5
rated = false
unrated = true
min_rating = 1000
max_rating = 2000
guests = false
titles_refused = ["C", "TD"]
max_games = 2

[[seeks]]
base = 2
increment = 12
rated = false
variant = "fr"
color = "black"
formula = true

[draw]
offer = false
offer_after = 30
offer_within = 10
offer_for = 3
accept = false
accept_after = 10
accept_below = -50

[resign]
enabled = false
below = -500
moves = 2

[offers]
takebacks = 2
abort = false
adjourn = false

[bot]
owner = "me"
greeting = "Hi"
farewell = "Thanks"
kibitz = true
pgn_dir = "games"
reconnect = false
"""
    config = load_config(write(tmp_path, text))
    assert (config.host, config.port, config.dialect) == ("chess.example.org", 5001, "icc")
    assert (config.user, config.password) == ("RoboBot", "pw")
    engine = config.engine
    assert engine.command == ("sjeng", "--quiet") and engine.protocol == "xboard"
    assert dict(engine.options) == {"Hash": 32, "Ponder": False, "Style": "solid"}
    assert (engine.skill, engine.nodes, engine.depth) == (3, 1000, 8)
    assert engine.movetime == 2.0 and isinstance(engine.movetime, float) and engine.ponder
    assert engine.cwd == str(tmp_path / "run")
    assert engine.book == str(Path("~/book.bin").expanduser())
    assert engine.tablebases == (str(tmp_path / "tb"), "/abs/tb")
    assert engine.book_depth == 8
    assert config.challenges == ChallengeRules(
        accept=False,
        variants=("chess", "crazyhouse", "suicide"),
        min_base=1,
        max_base=15.5,
        max_increment=5,
        rated=False,
        min_rating=1000,
        max_rating=2000,
        guests=False,
        titles_refused=("C", "TD"),
        max_games=2,
    )
    assert config.seeks == (Seek(2, 12, rated=False, variant="fr", color="black", formula=True),)
    assert config.draw == DrawRules(False, 30, 10, 3, False, 10, -50)
    assert config.resign == ResignRules(False, -500, 2)
    assert config.offers == OfferRules(2, False, False)
    assert (config.owner, config.greeting, config.farewell) == ("me", "Hi", "Thanks")
    assert config.kibitz and not config.reconnect and config.pgn_dir == str(tmp_path / "games")


def test_a_relative_command_path_is_taken_from_the_files_directory(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[engine]\ncommand = ["./bin/engine", "-x"]\n'))
    assert config.engine.command == (str(tmp_path / "bin" / "engine"), "-x")


def test_overrides_replace_the_file_and_none_changes_nothing(tmp_path: Path) -> None:
    path = write(tmp_path, '[server]\nport = 5001\n[engine]\ncommand = ["stockfish"]\n')
    config = load_config(
        path, host="example.org", port=None, user="Bot", command=["sjeng"], protocol="xboard"
    )
    assert (config.host, config.port, config.user) == ("example.org", 5001, "Bot")
    assert config.engine.command == ("sjeng",) and config.engine.protocol == "xboard"
    no_engine = write(tmp_path, "[server]\nport = 5001\n")
    assert load_config(no_engine, command="stockfish").engine.command == ("stockfish",)


def test_a_relative_command_override_is_the_working_directorys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, '[engine]\ncommand = ["./in-file"]\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert load_config(path).engine.command == (str(tmp_path / "in-file"),)
    config = load_config(path, command="./bin/sjeng -q")
    assert config.engine.command == (str(elsewhere / "bin" / "sjeng"), "-q")


def test_default_config_takes_overrides_checked_like_the_file() -> None:
    config = default_config(
        ["sjeng"], "xboard", port=5002, challenges=ChallengeRules(max_games=3), seeks=[Seek(1, 0)]
    )
    assert config.engine.protocol == "xboard" and config.port == 5002
    assert config.challenges.max_games == 3 and config.seeks == (Seek(1, 0),)
    with pytest.raises(ConfigError, match=r"^port: must be from 1 to 65535"):
        default_config(["sjeng"], port=0)
    with pytest.raises(ConfigError, match=r"^engine.protocol: must be 'uci' or 'xboard'"):
        default_config(["sjeng"], "winboard")
    with pytest.raises(ConfigError, match=r"^colour: unknown setting"):
        default_config(["sjeng"], colour="white")
    with pytest.raises(ConfigError, match=r"^draw: must be a DrawRules"):
        default_config(["sjeng"], draw=ResignRules())
    with pytest.raises(ConfigError, match=r"^engine.command: must name the program"):
        default_config([])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[engine]\ncommand=['x']\n[engin]\n", r"^\[engin\]: unknown table"),
        ("[engine]\ncommand=['x']\nskil = 3\n", r"^engine.skil: unknown key"),
        ("[engine]\ncommand=['x']\nskill = 21\n", r"^engine.skill: must be from 0 to 20, not 21"),
        ("[engine]\ncommand=['x']\nskill = -1\n", r"^engine.skill: must be from 0 to 20"),
        ("[engine]\ncommand=['x']\nskill = '3'\n", r"^engine.skill: must be an integer, not '3'"),
        ("[engine]\ncommand=['x']\nnodes = true\n", r"^engine.nodes: must be an integer"),
        ("[engine]\ncommand=['x']\nnodes = 0\n", r"^engine.nodes: must be at least 1"),
        ("[engine]\ncommand=['x']\ndepth = -2\n", r"^engine.depth: must be at least 1"),
        ("[engine]\ncommand=['x']\nmovetime = 0\n", r"^engine.movetime: must be more than 0"),
        ("[engine]\ncommand=['x']\nmovetime = -1.5\n", r"^engine.movetime: must be more than 0"),
        ("[engine]\ncommand=['x']\nbook_depth = -1\n", r"^engine.book_depth: must be at least"),
        ("[engine]\ncommand=['x']\nprotocol = 'cecp'\n", r"^engine.protocol: must be 'uci'"),
        ("[engine]\ncommand=['x']\noptions = 3\n", r"^engine.options: must be a table"),
        ("[engine]\ncommand=['x']\noptions={Hash=1.5}\n", r"^engine.options.Hash: must be"),
        ("[engine]\ncommand=['x']\ntablebases = 'tb'\n", r"^engine.tablebases: must be a list"),
        ("[engine]\ncommand=[]\n", r"^engine.command: must name the program"),
        ("[engine]\ncommand=['x', 1]\n", r"^engine.command\[1\]: must be a string"),
        ("[engine]\nskill = 3\n", r"^engine.command: missing"),
        ("[server]\nport = 70000\n[engine]\ncommand=['x']\n", r"^server.port: must be from 1"),
        ("[server]\nport = '5000'\n[engine]\ncommand=['x']\n", r"^server.port: must be an"),
        ("[server]\ndialect = 'chessd'\n[engine]\ncommand=['x']\n", r"^server.dialect: must be"),
        ("[server]\nowner = 'me'\n[engine]\ncommand=['x']\n", r"^server.owner: unknown key"),
        ("[server]\nuser = ''\n[engine]\ncommand=['x']\n", r"^server.user: must not be empty"),
        ("server = 3\n[engine]\ncommand=['x']\n", r"^server: must be a table"),
        ("engine = 'stockfish'\n", r"^engine: must be a table"),
        ("[bot]\nkibitz = 'yes'\n[engine]\ncommand=['x']\n", r"^bot.kibitz: must be true or"),
        (
            "[challenges]\nvariants = ['chess', 'chess960']\n[engine]\ncommand=['x']\n",
            r"^challenges.variants\[1\] is not a variant: 'chess960'",
        ),
        (
            "[challenges]\nmin_base = 20\nmax_base = 10\n[engine]\ncommand=['x']\n",
            r"^challenges.min_base: 20.0 is more than challenges.max_base \(10.0\)",
        ),
        (
            "[challenges]\nmin_rating = 10000\n[engine]\ncommand=['x']\n",
            r"^challenges.min_rating: 10000 is more than challenges.max_rating",
        ),
        ("[challenges]\nmax_games = 0\n[engine]\ncommand=['x']\n", r"^challenges.max_games: must"),
        ("[challenges]\nmin_increment = -1\n[engine]\ncommand=['x']\n", r"^challenges.min_incr"),
        ("[[seeks]]\nbase = 5\n[engine]\ncommand=['x']\n", r"^seeks\[0\].increment: missing"),
        (
            "[[seeks]]\nbase=5\nincrement=0\n[[seeks]]\nbase=1\nincrement=0\nvariant='w99'\n"
            "[engine]\ncommand=['x']\n",
            r"^seeks\[1\].variant: is not a variant: 'w99'",
        ),
        (
            "[[seeks]]\nbase=5\nincrement=0\ncolor='red'\n[engine]\ncommand=['x']\n",
            r"^seeks\[0\].color: must be 'white' or 'black' or ''",
        ),
        ("[[seeks]]\nbase=-1\nincrement=0\n[engine]\ncommand=['x']\n", r"^seeks\[0\].base: must"),
        ("seeks = 3\n[engine]\ncommand=['x']\n", r"^seeks: must be an array of tables"),
        ("[draw]\noffer_for = 0\n[engine]\ncommand=['x']\n", r"^draw.offer_for: must be at"),
        ("[draw]\naccept_below = 1.5\n[engine]\ncommand=['x']\n", r"^draw.accept_below: must"),
        ("[resign]\nmoves = 0\n[engine]\ncommand=['x']\n", r"^resign.moves: must be at least"),
        ("[offers]\ntakebacks = -1\n[engine]\ncommand=['x']\n", r"^offers.takebacks: must be"),
        ("[offers]\nundo = 1\n[engine]\ncommand=['x']\n", r"^offers.undo: unknown key"),
    ],
)
def test_a_wrong_key_or_value_is_named_in_the_error(
    tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(write(tmp_path, text))


def test_a_missing_or_broken_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "none.toml")
    with pytest.raises(ConfigError, match="is not TOML"):
        load_config(write(tmp_path, "[engine\n"))


def test_an_override_is_checked_like_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, '[engine]\ncommand = ["stockfish"]\n')
    with pytest.raises(ConfigError, match=r"^port: must be an integer, not '5000'"):
        load_config(path, port="5000")
    with pytest.raises(ConfigError, match=r"^engine.protocol: must be"):
        load_config(path, protocol="ucci")

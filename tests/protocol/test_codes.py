"""The code tables of icswire.protocol.codes against icc-formats.txt."""

import re
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from icswire.boards.pgn import TERMINATIONS
from icswire.protocol.codes import (
    GAME_RESULTS,
    ILLEGAL_MOVE_TEXTS,
    LOGIN_FAILED_TEXTS,
    TITLES,
    AbortMode,
    AdjournMode,
    BoardInfoColor,
    BoardInfoType,
    DrawMode,
    GameRelation,
    GameResultCode,
    IllegalMoveReason,
    IsVariation,
    LoginFailed,
    PlayerState,
    ResultCode,
    ResultStatus,
    SeekRemovedReason,
    Sound,
    TourneyFlag,
    WinMode,
    decode_dialog_data,
    describe_result,
    encode_dialog_data,
    login_failed_text,
)

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec" / "icc-formats.txt"


@pytest.fixture(scope="module")
def spec() -> str:
    if not SPEC.is_file():
        pytest.skip(f"spec not found at {SPEC} (expected beside the repository in shared/)")
    return SPEC.read_text()


def section(spec: str, heading: str) -> str:
    """The text of one DG's entry: from its heading line to the next blank line."""
    start = spec.index(f"\n{heading} \n")
    end = spec.index("\n\n", start + 1)
    return spec[start:end]


def flat(text: str) -> str:
    return " ".join(text.split())


def numbered_items(text: str, first: int, last: int) -> dict[int, str]:
    """Split "1 foo 2 bar ... N baz tail" into {1: "foo", 2: "bar", ..., N: "baz tail"}."""
    positions = []
    pos = 0
    for n in range(first, last + 1):
        match = re.compile(rf"(?:^| ){n} ").search(text, pos)
        assert match is not None, f"item {n} not found"
        positions.append((match.start(), match.end()))
        pos = match.end()
    ends = [start for start, _ in positions[1:]] + [len(text)]
    return {
        n: text[body:end].strip()
        for n, (_, body), end in zip(range(first, last + 1), positions, ends, strict=True)
    }


def drop_editorial(text: str) -> str:
    """Cut a spec text at its first bracketed remark, e.g. "White wins [specific ...]"."""
    return text.split(" [")[0]


# DG_GAMELIST_ITEM results


def spec_results(spec: str) -> dict[tuple[int, int], tuple[str, str]]:
    rows = {}
    status = -1
    for line in section(spec, "73 DG_GAMELIST_ITEM").splitlines():
        if m := re.fullmatch(r"status (\d+):", line):
            status = int(m[1])
        elif m := re.fullmatch(r"mode (\d+): \((\S+)\) (.*)", line):
            rows[status, int(m[1])] = (m[2], drop_editorial(m[3]))
    return rows


def test_game_results_match_the_spec(spec: str) -> None:
    expected = spec_results(spec)
    assert len(expected) == 13 + 11 + 6 + 13
    actual = {key: (r.code, r.text) for key, r in GAME_RESULTS.items()}
    assert actual == expected


def test_game_results_are_keyed_by_their_own_status_and_mode() -> None:
    for (status, mode), result in GAME_RESULTS.items():
        assert (result.status, result.mode) == (status, mode)
        assert isinstance(result, GameResultCode)


@pytest.mark.parametrize(
    ("status", "mode", "code", "text"),
    [
        (0, 0, "Res", "Black resigns"),
        (0, 1, "Mat", "Black checkmated"),
        (0, 2, "Fla", "Black forfeits on time."),
        (0, 6, "BQ", "Unregistered player Black disconnected and forfeits"),
        (0, 11, "BQ", "Black disconnected and forfeits"),
        (0, 12, "1-0", "White wins"),
        (1, 3, "50", "Game drawn by the 50 move rule"),
        (1, 4, "TM", "Black ran out of time and White has no material to mate"),
        (1, 10, "1/2", "Game drawn"),
        (2, 3, "?", "Game courtesyadjourned by Black"),
        (3, 2, "SD", "Game aborted by system shutdown"),
        (3, 3, "BA", "Game courtesyaborted by Black"),
        (3, 5, "Sho", "Game aborted because it's too short to adjourn"),
        (3, 12, "?", "No result"),
    ],
)
def test_game_result_spot_checks(status: int, mode: int, code: str, text: str) -> None:
    assert GAME_RESULTS[status, mode] == (status, mode, code, text)


def test_result_status() -> None:
    assert [(s.name, s.value) for s in ResultStatus] == [
        ("WIN", 0),
        ("DRAW", 1),
        ("ADJOURNED", 2),
        ("ABORTED", 3),
    ]


@pytest.mark.parametrize(
    ("status", "mode", "text"),
    [
        (0, 1, "White checkmated"),
        (0, 3, "Black declared the winner by adjudication"),
        (0, 7, "White's partner resigns"),
        (0, 12, "Black wins"),
        (1, 4, "White ran out of time and Black has no material to mate"),
        (3, 6, "Game aborted when White's partner disconnected"),
        (1, 0, "Game drawn by mutual agreement"),
    ],
)
def test_describe_result_for_white(status: int, mode: int, text: str) -> None:
    result = describe_result(status, mode, 1)
    assert result.text == text
    assert result.code == GAME_RESULTS[status, mode].code


def test_describe_result_for_black_is_the_table_entry() -> None:
    for (status, mode), result in GAME_RESULTS.items():
        assert describe_result(status, mode, 0) == result


def test_describe_result_swaps_black_and_white_everywhere() -> None:
    for (status, mode), black in GAME_RESULTS.items():
        swapped = black.text.replace("Black", "\0").replace("White", "Black").replace("\0", "White")
        assert describe_result(status, mode, 1) == black._replace(text=swapped)


@pytest.mark.parametrize(("status", "mode"), [(0, 13), (1, 11), (2, 6), (3, 13), (4, 0), (-1, 0)])
def test_describe_result_unknown_pair(status: int, mode: int) -> None:
    with pytest.raises(ValueError, match=rf"status {status}, mode {mode}"):
        describe_result(status, mode, 0)
    with pytest.raises(KeyError):
        describe_result(status, mode, 0)


@pytest.mark.parametrize("color", [-1, 2])
def test_describe_result_bad_color(color: int) -> None:
    with pytest.raises(ValueError, match="color"):
        describe_result(0, 0, color)


# DG_LOGIN_FAILED


def spec_login_failed(spec: str) -> dict[int, str]:
    text = flat(section(spec, "69 DG_LOGIN_FAILED"))
    text = text.split("Codes and explanation strings are currently as follows: ")[1]
    return {
        n: drop_editorial(item).replace("<name>", "{name}").replace("%d", "{position}")
        for n, item in numbered_items(text, 1, 22).items()
    }


def test_login_failed_texts_match_the_spec(spec: str) -> None:
    expected = spec_login_failed(spec)
    assert {int(code): text for code, text in LOGIN_FAILED_TEXTS.items()} == expected


def test_login_failed_codes() -> None:
    assert [int(c) for c in LoginFailed] == list(range(1, 23))
    assert set(LOGIN_FAILED_TEXTS) == set(LoginFailed)
    assert LoginFailed.REGISTER_ON_MAIN_SERVER.value == 1
    assert LoginFailed.NAME_TOO_LONG.value == 2
    assert LoginFailed.NAME_TOO_SHORT.value == 3
    assert LoginFailed.NAME_NOT_ALPHANUMERIC.value == 4
    assert LoginFailed.REGISTERED_NAME.value == 5
    assert LoginFailed.INVALID_PASSWORD.value == 11
    assert LoginFailed.ALREADY_LOGGED_IN.value == 14
    assert LoginFailed.QUEUED.value == 20


@pytest.mark.parametrize(
    ("code", "text"),
    [
        (1, "To register, please connect to the main server (chessclub.com)."),
        (2, "Sorry, names may be at most 15 characters long. Try again."),
        (5, "Gotti is a registered name. If it is yours, type the password."),
        (6, "Gotti is not a registered name."),
        (9, "Try again."),
        (13, "Something is wrong."),
        (14, "Gotti, whose name matches yours, is already logged in. Sorry."),
        (18, "The chess server is currently only admitting registered players."),
        (19, "The chess server is full."),
        (20, "You have entered the queue. Your current position is 42."),
        (
            22,
            "The Gotti account is restricted to using Blitzin and only on one particular computer.",
        ),
    ],
)
def test_login_failed_text(code: int, text: str) -> None:
    assert login_failed_text(code, name="Gotti", position=42) == text


def test_login_failed_texts_have_no_editorial_remarks() -> None:
    for text in LOGIN_FAILED_TEXTS.values():
        assert "[" not in text
        assert "<" not in text
        assert "%" not in text


@pytest.mark.parametrize("code", [0, 23, -5])
def test_login_failed_unknown_code(code: int) -> None:
    with pytest.raises(ValueError, match=str(code)):
        login_failed_text(code)


# DG_ILLEGAL_MOVE


def test_illegal_move_texts_match_the_spec(spec: str) -> None:
    text = flat(section(spec, "42 DG_ILLEGAL_MOVE"))
    text = text.split("Reason codes include: ")[1].removesuffix(" I get the text message anyway.")
    expected = numbered_items(text, 1, 10)
    assert {int(code): text for code, text in ILLEGAL_MOVE_TEXTS.items()} == expected


def test_illegal_move_reasons() -> None:
    assert [int(r) for r in IllegalMoveReason] == list(range(1, 11))
    assert ILLEGAL_MOVE_TEXTS[IllegalMoveReason.NOT_YOUR_MOVE] == "Not your move"
    assert IllegalMoveReason(1) is IllegalMoveReason.BAD_NOTATION
    assert IllegalMoveReason(10) is IllegalMoveReason.LOST_ON_TIME


# DG_SOUND, DG_SEEK_REMOVED, DG_IS_VARIATION


def test_sounds_match_the_spec(spec: str) -> None:
    defines = re.findall(r"#define SOUND_(\w+) (\d+)", section(spec, "53 DG_SOUND"))
    assert len(defines) == 16
    assert [(s.name, s.value) for s in Sound] == [(name, int(n)) for name, n in defines]
    assert Sound.BELL.value == 0
    assert Sound.HELLO.value == 1
    assert Sound.OBSERVED_START.value == 15


def test_seek_removed_reasons_match_the_spec(spec: str) -> None:
    text = flat(section(spec, "51 DG_SEEK_REMOVED")).split("Reason codes are ")[1]
    text = text.split(" The server")[0]
    items = numbered_items(text, 1, 5)
    assert [int(r) for r in SeekRemovedReason] == list(items)
    assert items[1] == "Seeker left"
    assert SeekRemovedReason(1) is SeekRemovedReason.SEEKER_LEFT
    assert SeekRemovedReason(2) is SeekRemovedReason.SEEKER_PLAYING
    assert SeekRemovedReason(5) is SeekRemovedReason.SEEKER_NOT_AVAILABLE


def test_is_variation_matches_the_spec(spec: str) -> None:
    found = re.findall(r"(\d) (MOVE_[A-Z]+)", flat(section(spec, "113 DG_IS_VARIATION")))
    assert [(v.name, v.value) for v in IsVariation] == [(name, int(n)) for n, name in found]
    assert IsVariation.MOVE_INITIAL.value == 0
    assert IsVariation.MOVE_SIDELINE.value == 6


# DG_BOARDINFO


def test_board_info_types(spec: str) -> None:
    text = flat(section(spec, "143 DG_BOARDINFO"))
    numbers = re.search(r"type \(integer\) (.*?) coord1", text)
    assert numbers is not None
    spec_values = [int(n) for n in re.findall(r"\d+", numbers[1])]
    assert [int(t) for t in BoardInfoType] == spec_values == [0, 1, 4, 5, 6, 7, 8]
    assert BoardInfoType(0) is BoardInfoType.CLEAR_ALL
    assert BoardInfoType(4) is BoardInfoType.ARROW
    assert BoardInfoType(8) is BoardInfoType.GHOST_PIECES


def test_board_info_colors_match_the_spec(spec: str) -> None:
    text = flat(section(spec, "143 DG_BOARDINFO")).split("color (integer) ")[1]
    items = numbered_items(text, 0, 9)
    assert {c.value: c.name for c in BoardInfoColor} == {
        n: name.upper().replace(" ", "_") for n, name in items.items()
    }


# DG_TOURNEY, DG_STATE, DG_PLAYERS_IN_MY_GAME, titles


def test_tourney_flags() -> None:
    assert [int(f) for f in TourneyFlag] == [1, 2, 4, 8]
    both = TourneyFlag(6)
    assert TourneyFlag.NO_JOIN_WINDOW in both
    assert TourneyFlag.NO_WATCH_WINDOW in both
    assert TourneyFlag.GUESTS_MAY_JOIN not in both
    assert TourneyFlag(15) == (
        TourneyFlag.GUESTS_MAY_JOIN
        | TourneyFlag.NO_JOIN_WINDOW
        | TourneyFlag.NO_WATCH_WINDOW
        | TourneyFlag.NO_INFO_WINDOW
    )


def symbol_meanings(text: str) -> dict[str, str]:
    """Parse "P=playing E=examining ..." into {"P": "playing", ...}."""
    parts = re.split(r"\s*\b([A-Z]+)=", text)[1:]
    return dict(zip(parts[::2], parts[1::2], strict=True))


def test_player_states_match_the_spec(spec: str) -> None:
    text = flat(section(spec, "11 DG_STATE"))
    listed = re.search(r"(P=.*?) indicates", text)
    assert listed is not None
    meanings = symbol_meanings(listed[1])
    assert [s.value for s in PlayerState] == list(meanings)
    assert PlayerState("P") is PlayerState.PLAYING
    assert PlayerState("X") is PlayerState.NONE


def test_game_relations_match_the_spec(spec: str) -> None:
    text = flat(section(spec, "20 DG_PLAYERS_IN_MY_GAME"))
    listed = re.search(r"(O=.*?) Note that", text)
    assert listed is not None
    meanings = symbol_meanings(listed[1])
    assert [r.value for r in GameRelation] == list(meanings)
    for relation in GameRelation:
        words = relation.name.lower().replace("_", " ")
        assert words.split()[-1] in meanings[relation.value].lower()


def test_titles_match_the_spec(spec: str) -> None:
    text = flat(spec).split("Titles currently include: ")[1].split(" A few of the items")[0]
    expected = dict(re.findall(r"\((\S+)\) ([a-zA-Z ]+?)(?= \(|$)", text))
    assert expected == TITLES
    assert TITLES["GM"] == "grandmaster"
    assert TITLES["*"] == "administrator"
    assert len(TITLES) == 12


# DG_DIALOG_DATA


def test_dialog_data_known_values() -> None:
    assert encode_dialog_data(b"") == ""
    assert encode_dialog_data(bytes([0x00, 0x1F, 0xA5, 0xFF])) == "aabpkfpp"
    assert decode_dialog_data("aabpkfpp") == bytes([0x00, 0x1F, 0xA5, 0xFF])


@given(st.binary())
def test_dialog_data_round_trip(data: bytes) -> None:
    text = encode_dialog_data(data)
    assert len(text) == 2 * len(data)
    assert set(text) <= set("abcdefghijklmnop")
    assert decode_dialog_data(text) == data


@given(st.integers(0, 255))
def test_dialog_data_byte_formula(n: int) -> None:
    assert encode_dialog_data(bytes([n])) == chr(ord("a") + (n >> 4)) + chr(ord("a") + (n & 15))


@given(st.text(alphabet="abcdefghijklmnop").filter(lambda t: len(t) % 2 == 1))
def test_dialog_data_odd_length(text: str) -> None:
    with pytest.raises(ValueError, match="odd"):
        decode_dialog_data(text)


@given(
    st.text(alphabet="abcdefghijklmnop"),
    st.characters().filter(lambda c: c not in "abcdefghijklmnop"),
    st.text(alphabet="abcdefghijklmnop"),
)
def test_dialog_data_bad_character(before: str, bad: str, after: str) -> None:
    text = before + bad + after
    if len(text) % 2:
        text += "a"
    with pytest.raises(ValueError, match=r"a\.\.p"):
        decode_dialog_data(text)


@pytest.mark.parametrize("text", ["aq", "AA", "a1", "a ", "pz", string.digits])
def test_dialog_data_bad_examples(text: str) -> None:
    with pytest.raises(ValueError):
        decode_dialog_data(text)


def test_result_names_cover_the_table() -> None:
    """Every (status, mode) pair of DG_GAMELIST_ITEM has its name, every name its row, and
    every row's short code is a ResultCode (each with a PGN Termination)."""
    modes = {
        ResultStatus.WIN: WinMode,
        ResultStatus.DRAW: DrawMode,
        ResultStatus.ADJOURNED: AdjournMode,
        ResultStatus.ABORTED: AbortMode,
    }
    named = {(status, mode) for status, enum in modes.items() for mode in enum}
    assert named == set(GAME_RESULTS)
    assert {row.code for row in GAME_RESULTS.values()} == {code.value for code in ResultCode}
    assert set(TERMINATIONS) == set(ResultCode)
    assert describe_result(ResultStatus.WIN, WinMode.CHECKMATED, 1).code == "Mat"
    assert describe_result(ResultStatus.DRAW, DrawMode.REPETITION, 0).code == "Rep"

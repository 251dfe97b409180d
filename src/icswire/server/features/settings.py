"""Variables and aliases: ``vars``, ``ivars``, ``set``, ``style``, ``iset``, ``set-2``,
``next`` (the next page of long text, ``set height``), ``alias``, ``unalias``; and the
toggles ``open``, ``rated``, ``bell``, each ``set NAME`` without a value (FICS's
``com_open`` and ``com_bell`` are that ``set``; ICC has ``rated`` too).

``set-2 N 1`` turns DG ``N`` on and sends what section 4 says comes with it: the world's
lists here, the other features' lists through the registry's ``dg_on`` hook.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.protocol.level1 import Level1
from icswire.server.core.dispatch.commands import first_word
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.named import player_here
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.dispatch.paging import next_page
from icswire.server.core.model.formula import SUBFORMULA_COUNT, FormulaError, parse
from icswire.server.core.model.names import name_key
from icswire.server.core.model.variables import (
    IVARIABLE_NAMES,
    IVARIABLES,
    NOTES,
    REGISTERED_ONLY,
    SUBFORMULAS,
    VARIABLES,
    BadValue,
    InterfaceVariables,
    NoSuchVariable,
    SetVariables,
    Value,
    Variable,
    value_of,
)
from icswire.server.core.model.zones import SERVER, zone_name
from icswire.server.core.render.alerts import highlighted
from icswire.server.core.render.batch import Batch, Datagram, lines

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User

COMMANDS = CommandSet()
command = COMMANDS.command


def _ivars(values: InterfaceVariables) -> list[str]:
    """What ``ivars`` lists: ``name=value``, six a line, in FICS's order."""
    shown = [f"{name}={value_of(values, name)}" for name in IVARIABLE_NAMES]
    return [" ".join(shown[i : i + 6]) for i in range(0, len(shown), 6)]


#: FICS's ``variables`` layout: rows of five columns (13, 14, 16 and 16 wide, then the
#: rest); a name this server does not declare leaves its cell blank. Declared variables
#: the grid does not place follow in rows of their own.
VARS_GRID: tuple[tuple[str, ...], ...] = (
    ("time", "private", "shout", "pin", "style"),
    ("inc", "jprivate", "cshout", "notifiedby", "flip"),
    ("rated", "automail", "kibitz", "availinfo", "highlight"),
    ("open", "pgn", "kiblevel", "availmin", "bell"),
    ("ropen", "", "tell", "availmax", "width"),
    ("bugopen", "mailmess", "ctell", "gin", "height"),
    ("", "tourney", "chanoff", "seek", ""),
    ("", "", "sshout", "showownseek", "tzone"),
    ("provshow", "", "silence", "", "lang"),
    ("autoflag", "unobserve", "", "", "level1"),
)
_COLUMNS = (13, 14, 16, 16)
#: Shown below the grid (``Prompt:``, ``Interface:``, the formula), or not at all (notes).
_BELOW = {"prompt", "interface", "formula", "busy", *SUBFORMULAS, *NOTES}


def _cell(name: str, values: SetVariables, level1: int) -> str:
    if name not in VARIABLES.by_name:
        return ""
    value = level1 if name == "level1" else value_of(values, name)
    return f"{'Lang' if name == 'lang' else name}={value}"


def _row(cells: list[str]) -> str:
    text = ""
    for index, cell in enumerate(cells):
        width = _COLUMNS[index] if index < len(_COLUMNS) else 0
        text += cell.ljust(width - 1) + " " if width else cell
    return text.rstrip()


def vars_lines(values: SetVariables, level1: int) -> list[str]:
    """The grid of ``variables`` for one user's values."""
    rows = [_row([_cell(n, values, level1) for n in row]) for row in VARS_GRID]
    placed = {name for row in VARS_GRID for name in row} | _BELOW
    rest = [n for n in VARIABLES.by_name if n not in placed]
    for start in range(0, len(rest), 5):
        rows.append(_row([_cell(n, values, level1) for n in rest[start : start + 5]]))
    return [row for row in rows if row]


@command("vars", CN.CN_VARS, "vars [name]")
async def show_vars(ctx: Context, args: str) -> None:
    """FICS's ``variables``: of a player online, or of a registered one who is not (his
    saved values, without the prompt and interface of a session)."""
    name = args.strip()
    player = ctx.world.find(name) if name else ctx.session
    if player is None:
        await ctx.core.writes.settled(name)  # what he set last is stored
        account = await asyncio.to_thread(ctx.store.load, name)
        if account is None:
            ctx.reply(f'There is no player matching the name "{name}".')
            return
        values = VARIABLES.values_of(account.settings)
        shown, level1, below = account.name, values["level1"], []
    else:
        values, shown, level1 = player.variables, player.display_name, player.level1
        below = ["", f"Prompt: {values['prompt']}"]
        if values["interface"]:
            below.append(f"Interface: {values['interface']}")
    subs = [f" {n}: {values[n]}" for n in SUBFORMULAS if values[n]]
    below += ["", *subs] if subs else []
    if values["formula"]:
        below += ["", f"Formula: {values['formula']}"]
    ctx.reply(f"Variable settings of {shown}:", "", *vars_lines(values, level1), *below)


@command("ivars", CN.CN_VARS, "ivars [name]")
async def show_ivars(ctx: Context, args: str) -> None:
    player = ctx.world.find(args.strip()) if args.strip() else ctx.session
    if player is None:
        ctx.reply(f'No user named "{args.strip()}" is logged in.')
        return
    ctx.reply(
        f"Interface variable settings of {player.display_name}:",
        "",
        *_ivars(player.ivariables),
    )


def _no_such(exc: NoSuchVariable, ivariable: bool) -> str:
    """FICS's words for a name that is no variable: ``com_set`` for ``set``, and for
    ``iset`` what FICS (and FatICS after it) says of ivariables."""
    if ivariable:
        if exc.matches:
            return f'Ambiguous ivariable "{exc.word}". Matches: {" ".join(exc.matches)}'
        return f'No such ivariable "{exc.word}".'
    if exc.matches:
        return f"Ambiguous variable name {exc.word}."
    return f"No such variable name {exc.word}."


@command("set", CN.CN_SET, "set <variable> [value]")
async def set_(ctx: Context, args: str) -> None:
    name, value = first_word(args)
    if not name:
        ctx.reply("Usage: set <variable> [value]")
        return
    try:
        variable = VARIABLES.find(SET_ALIASES.get(name.lower(), name))
    except NoSuchVariable as exc:
        ctx.reply(_no_such(exc, ivariable=False))
        return
    refusal = REGISTERED_ONLY.get(variable.name)
    if refusal and not ctx.session.registered:
        ctx.reply(refusal)
        return
    if not value and variable.kind == "bool":  # FICS: a boolean without a value toggles
        parsed: Value | None = 0 if _current(ctx.session, variable) else 1
    else:
        try:
            parsed = variable.parse(value) if value or variable.kind == "str" else None
            if parsed is not None:
                parsed = _checked(variable, parsed)
        except BadValue as exc:
            ctx.reply(f"Bad value given for variable {name}.", *exc.args[1:])
            return
    if parsed is None:
        ctx.reply(f"Bad value given for variable {name}.")
        return
    await apply_variable(ctx, variable, parsed)


def _checked(variable: Variable, value: Value) -> Value:
    """What a variable keeps of a value only it knows how to read: a formula must parse
    (``fN`` may use the sub-formulas before it), a time zone must be one."""
    name = variable.name
    if name == "formula" or name in SUBFORMULAS:
        text = str(value).strip()
        if text:
            try:
                parse(text, SUBFORMULA_COUNT if name == "formula" else int(name[1:]) - 1)
            except FormulaError as exc:
                raise BadValue(name, f"  {exc}") from exc
        return text
    if name == "promote":  # lasker's set_promote: the first letter, k a knight
        letter = str(value).strip().lower()[:1]
        if letter not in PROMOTIONS:
            raise BadValue(name)
        return "n" if letter == "k" else letter
    if name == "tzone":
        if not str(value).strip():  # ``set tzone`` alone: the server's zone again
            return SERVER
        zone = zone_name(str(value))
        if zone is None:
            raise BadValue(name, f'  No such time zone "{str(value).strip()}".')
        return zone
    return value


def _current(session: User, variable: Variable) -> Value:
    if variable.name == "level1":
        return session.level1
    return value_of(session.variables, variable.name)


def _set_text(variable: Variable, value: Value, icc: bool = False) -> tuple[str, ...]:
    """What ``set`` answers, in FICS's words where FICS has its own (``variable.c``);
    a FICS session gets lasker's where ICC's differ (:data:`_LASKER`)."""
    name = variable.name
    if not icc and name in _LASKER:
        return _LASKER[name](value)
    if name == "style":
        return (f"Style {value} set.",)
    if name == "availinfo":
        return (
            f"availinfo set to {value}.",
            "You will receive info on who is available to play."
            if value
            else "You are no longer receiving info on who is available to play.",
        )
    if variable.on_text:
        return (variable.on_text.format(value=value) if value else variable.off_text,)
    said = _SAID.get(name)
    if said is not None:
        return (said.format(value),)
    if name == "promote":
        return (f"Promotion piece set to {PROMOTIONS[str(value)]}.",)
    if name == "kiblevel":
        return (f"Kibitz level now set to: {value}.",)
    if name == "highlight":
        return (f"Highlight is now style {highlighted(str(value), int(value))}." if value
                else "Highlight is off.",)  # fmt: skip
    if name == "formula":
        return (f"Formula set to {value}." if value else "Formula unset.",)
    if name in SUBFORMULAS:
        return (f"Formula variable {name} set to {value}." if value
                else f"Formula variable {name} unset.",)  # fmt: skip
    return (f"{name} set to {value}.",)


#: lasker's answers (``variable.c``) where they are not ICC's: ``prompt`` and
#: ``interface`` are set in silence, ``seek`` is lasker's ``ads``.
_LASKER: dict[str, Callable[[Value], tuple[str, ...]]] = {
    "prompt": lambda value: (),
    "interface": lambda value: (),
    "private": lambda value: (
        "Your games will be private." if value else "Your games may not be private.",
    ),
    "seek": lambda value: ("You will now hear ads." if value else "You will not hear ads.",),
    "lang": lambda value: (f"Language set to {value}.",),
}

#: Other names lasker's ``set`` takes for these variables (variable.c's table).
SET_ALIASES = {
    "pinform": "pin",
    "i_login": "pin",
    "ginform": "gin",
    "i_game": "gin",
    "language": "lang",
}

#: ``set promote``'s letters and the pieces lasker's ``set_promote`` names (``k`` is a
#: knight there, as the help says).
PROMOTIONS = {"q": "QUEEN", "r": "ROOK", "b": "BISHOP", "n": "KNIGHT", "k": "KNIGHT"}

#: What ``set automail 1``, ``set pgn 1`` and ``set mailmess 1`` add on a server without an
#: SMTP relay (``icswire serve --smtp-relay``): the setting is kept, but nothing is mailed.
NO_MAIL = 'This server sends no mail: "history", "smoves" and "pgn" show your games.'
NO_MESSAGE_MAIL = 'This server sends no mail: "messages" shows your messages.'
_NO_MAIL = {"automail": NO_MAIL, "pgn": NO_MAIL, "mailmess": NO_MESSAGE_MAIL}

#: FICS's words for ``set`` of these variables (``variable.c``).
_SAID = {
    "time": "Default time set to {}.",
    "inc": "Default increment set to {}.",
    "width": "Width set to {}.",
    "height": "Height set to {}.",
    "tzone": "Time zone set to {}.",
}


async def apply_variable(ctx: Context, variable: Variable, value: Value) -> None:
    session, world = ctx.session, ctx.world
    if variable.name == "level1":
        session.level1 = Level1(int(value))
    else:
        session.set_variable(variable.name, value)
    if variable.name in NOTES:
        ctx.reply(f"Note {variable.name} set: {value}" if value else f"Note {variable.name} unset.")
    elif variable.name == "prompt" and not value:
        session.set_variable("prompt", VARIABLES.defaults["prompt"])
        if session.talks_icc:
            ctx.reply("Prompt set to the default.")
    else:
        ctx.reply(*_set_text(variable, value, session.talks_icc))
        if value and variable.name in _NO_MAIL and ctx.core.mailer is None:
            ctx.reply(_NO_MAIL[variable.name])
    ctx.batch.add(session, world.my_variable(session, variable.name))
    if variable.name == "tourney" and session not in ctx.core.play.by_player:
        # lasker's set_tourney: not available to others while in a tournament
        world.availability_changed(session, not value, ctx.batch, ctx.core.play.by_player.keys())
    if variable.name == "open":
        world.open_changed(session, ctx.batch)
        playing = ctx.core.play.by_player
        if session not in playing:
            world.availability_changed(session, bool(value), ctx.batch, playing.keys())
    elif variable.name in ("shout", "sshout"):
        world.shouts_changed(session, ctx.batch)
    ctx.core.registry.variable_changed(session, variable.name, value, ctx.batch, False)
    stored = (
        session.level1 if variable.name == "level1" else value_of(session.variables, variable.name)
    )
    ctx.save("save_setting", variable.name, str(stored) if stored != "" else None)


@command("open", CN.CN_OPEN, "open")
async def open_(ctx: Context, args: str) -> None:
    """Turn ``open`` (match requests) on or off: ``set open``."""
    await set_(ctx, "open")


@command("close", CN.CN_OPEN, "close")
async def close(ctx: Context, args: str) -> None:
    """Refuse match requests: ``set open 0`` (FICS's help ``open``: a player who is not
    open is "closed"; unlike ``open`` it does not toggle)."""
    await set_(ctx, "open 0")


@command("rated", CN.CN_RATED, "rated")
async def rated(ctx: Context, args: str) -> None:
    """Turn ``rated`` (matches and seeks rated unless told) on or off: ``set rated``."""
    await set_(ctx, "rated")


@command("bell", CN.CN_BELL, "bell")
async def bell(ctx: Context, args: str) -> None:
    """Turn ``bell`` on or off: ``set bell``."""
    await set_(ctx, "bell")


@command("promote", CN.CN_PROMOTE, "promote <q|r|b|n>")
async def promote(ctx: Context, args: str) -> None:
    """The piece a pawn promotes to when a move names none: ``set promote`` (lasker's
    ``com_promote``)."""
    if not args.strip():
        ctx.reply("Usage: promote <q|r|b|n>")
        return
    await set_(ctx, f"promote {args.strip()}")


@command("style", CN.CN_STYLE, "style <1-13>")
async def style(ctx: Context, args: str) -> None:
    variable = VARIABLES.by_name["style"]
    try:
        value = variable.parse(args)
    except BadValue:
        ctx.reply("Bad value given for variable style.")
        return
    await apply_variable(ctx, variable, value)


@command("iset", CN.CN_SET, "iset <variable> [0|1]")
async def iset(ctx: Context, args: str) -> None:
    name, value = first_word(args)
    session = ctx.session
    if not name:
        ctx.reply("Usage: iset <variable> [0|1]")
        return
    if session.ivariables["lock"]:  # FICS's com_iset: nothing changes once locked
        ctx.reply("Cannot alter: Interface setting locked.")
        return
    try:
        variable = IVARIABLES.find(name)
    except NoSuchVariable as exc:
        ctx.reply(_no_such(exc, ivariable=True))
        return
    try:
        parsed = (
            int(variable.parse(value)) if value else 1 - value_of(session.ivariables, variable.name)
        )
    except BadValue:
        ctx.reply(f'Bad value given for ivariable "{variable.name}".')
        return
    session.set_ivariable(variable.name, parsed)
    ctx.reply(f"{variable.name} {'set' if parsed else 'unset'}.")
    ctx.batch.add(session, ctx.world.my_variable(session, variable.name))
    ctx.core.registry.variable_changed(session, variable.name, parsed, ctx.batch, True)


@command("set-2", CN.CN_SET2, "set-2 <datagram> <0|1>")
async def set2(ctx: Context, args: str) -> None:
    word, value = first_word(args)
    dg_number = parse_number(word)
    if dg_number is None or value not in ("0", "1") or dg_number > 255:
        ctx.reply("Usage: set-2 <datagram number> <0|1>")
        return
    session = ctx.session
    # DG_DISABLE_PREMOVE "cannot be turned off, once you've turned it on"
    on = value == "1" or (dg_number == DG.DISABLE_PREMOVE and dg_number in session.level2)
    session.level2 = session.level2 | {dg_number} if on else session.level2 - {dg_number}
    ctx.batch.add(session, Datagram(dg.Set2(dg_number, on)))
    if on:
        ctx.world.send_lists(ctx.batch, session, dg_number)
        ctx.core.registry.datagram_on(session, dg_number, ctx.batch)


@command("next", CN.CN_MORE, "next")
async def next_(ctx: Context, args: str) -> None:
    """FICS's ``next``: the next page of long text (``set height``)."""
    ctx.reply(*next_page(ctx.session))


@command("alias", CN.SCN_MISCELLANEOUS, "alias [word [expansion]]")
async def alias(ctx: Context, args: str) -> None:
    word, expansion = first_word(args)
    aliases = ctx.session.aliases
    cap = ctx.core.limits.max_aliases
    if not word:
        ctx.page("Aliases:", *(f"{w} -> {e}" for w, e in sorted(aliases.items())))
    elif not expansion:
        ctx.reply(
            f"{word} -> {aliases[word]}"
            if word in aliases
            else f"You have no alias named '{word}'."
        )
    elif word.lower() not in aliases and 0 < cap <= len(aliases):
        ctx.reply(f"You have your maximum of {cap} aliases.")  # FICS's com_alias
    else:
        aliases[word.lower()] = expansion
        ctx.reply(f"Alias '{word}' set.")
        ctx.save("save_alias", word.lower(), expansion)


@command("unalias", CN.SCN_MISCELLANEOUS, "unalias <word>")
async def unalias(ctx: Context, args: str) -> None:
    word = args.strip().lower()
    if ctx.session.aliases.pop(word, None) is None:
        ctx.reply(f"You have no alias named '{word}'.")
        return
    ctx.reply(f"Alias '{word}' removed.")
    ctx.save("save_alias", word, None)


# -- for TDs: another player's variables -------------------------------------------------------


async def set_for(ctx: Context, player: User, variable: Variable, value: Value) -> None:
    """``set`` of ``player``'s ``variable`` by the TD of ``ctx``: kept and saved as the
    player's own ``set`` (its DG_MY_VARIABLE, the hooks); what ``set`` would answer is not
    said (the caller tells the player)."""
    batch = Batch(CN.CN_SET, None, issuer_name=ctx.session.name)
    await apply_variable(Context(ctx.core, player, batch, "set"), variable, value)
    batch.flush()


@command("tournset", CN.CN_QSET, "tournset <name> 0|1")
async def tournset(ctx: Context, args: str) -> None:
    """lasker's ``com_tournset``: a TD turns a registered player's ``tourney`` variable
    on or off; the player hears of a change, the TD nothing (nor of a name it does not
    find)."""
    if not ctx.session.is_td:
        ctx.reply("Only TD programs are allowed to use this command.")
        return
    name, flag = first_word(args)
    number = parse_number(flag)
    if not name or number is None:
        ctx.reply("Usage: tournset <name> 0|1")
        return
    player = ctx.world.online.get(name_key(name))
    if player is None or not player.registered:
        return
    if player.remote is not None:
        ctx.reply(f"{player.name} is connected to another node.")
        return
    on = 1 if number else 0
    if player.variables["tourney"] == on:
        return
    await set_for(ctx, player, VARIABLES.by_name["tourney"], on)
    said = "ON" if on else "OFF"
    ctx.batch.add(player, lines("", f"{ctx.session.name} has set your tourney variable to {said}."))


@command("qset", CN.CN_QSET, "qset <name> <variable> <value>")
async def qset(ctx: Context, args: str) -> None:
    """ICC's ``qset``: a TD sets a variable of a player who is logged in (``qset fred
    tourney 1``), as ``set`` would; the player is told who set what."""
    if not ctx.session.is_td:
        ctx.reply("Only TDs and administrators may use qset.")
        return
    name, rest = first_word(args)
    which, value = first_word(rest)
    if not which:
        ctx.reply("Usage: qset <name> <variable> <value>")
        return
    player = player_here(ctx, name)
    if player is None:
        return
    try:
        variable = VARIABLES.find(which)
        refusal = REGISTERED_ONLY.get(variable.name)
        if refusal and not player.registered:
            ctx.reply(f"{player.name} is unregistered: {refusal}")
            return
        parsed = variable.parse(value) if value or variable.kind == "str" else None
        if parsed is not None:
            parsed = _checked(variable, parsed)
    except NoSuchVariable as exc:
        ctx.reply(_no_such(exc, ivariable=False))
        return
    except BadValue:
        parsed = None
    if parsed is None:
        ctx.reply(f"Bad value given for variable {which}.")
        return
    await set_for(ctx, player, variable, parsed)
    shown = value_of(player.variables, variable.name)
    ctx.reply(f"{player.name}'s {variable.name} set to {shown}.")
    if player is not ctx.session:
        told = f"{ctx.session.name} has set your {variable.name} variable to {shown}."
        ctx.batch.add(player, lines(told))


def install(core: Core) -> None:
    core.registry.add_commands(COMMANDS)

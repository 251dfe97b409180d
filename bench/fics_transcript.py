"""One scripted FICS evening, typed to two servers, compared step by step.

Four registered users log in over TCP to each server in turn and type the same commands in
the same order (``STEPS``: tells, channels, shouts, a match with moves, observers,
kibitzes, offers, takebacks, adjournment, lists, settings, unknown commands ...). After each
step every user's output is read until the server is quiet, then normalised (digits, days
and months become ``#``/``Day``/``Mon``; the prompt is kept) and the two servers' outputs of
that step are compared. The report counts the identical steps and the reference's lines
that icswire sent too, in order (difflib's matching blocks, per user and step), and shows,
for each other step, the lines that differ.

It measures how close icswire's FICS dialect is to a reference FICS server (the C server of
``../shared/bench-peer`` or any lasker-style server the user can reach on 127.0.0.1). Both
servers need the same four accounts with the passwords given by ``--account``::

    python bench/fics_transcript.py --icswire-port 5000 --reference-port 5001 \\
        --account anna:PW --account boris:PW --account carla:PW --account dmitri:PW \\
        --out /tmp/fics-transcript.md

Each server is reached as it runs; this script starts none.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import re
from dataclasses import dataclass, field

#: (user index, line typed). Users 0-3 are the four accounts, in the order given.
STEPS: tuple[tuple[int, str], ...] = (
    (0, "who"),
    (0, "finger boris"),
    (0, "tell boris hello there"),
    (1, "say hi back"),
    (2, "+channel 50"),
    (3, "+channel 50"),
    (2, "tell 50 hello channel"),
    (0, "inchannel 50"),
    (3, "shout hello everybody"),
    (0, "it looks at the board"),
    (1, "set open 1"),
    (0, "set open 1"),
    (0, "set bell 0"),
    (0, "set tell 1"),
    (0, "set kibitz 1"),
    (0, "match boris 5 0 u white"),
    (1, "pending"),
    (1, "accept"),
    (0, "e4"),
    (1, "e5"),
    (2, "observe anna"),
    (3, "games"),
    (2, "allobservers"),
    (0, "kibitz nice opening"),
    (2, "whisper hmm"),
    (0, "Nf3"),
    (1, "Nc6"),
    (0, "moves"),
    (0, "draw"),
    (1, "decline"),
    (1, "takeback 1"),
    (0, "accept"),
    (1, "d6"),
    (0, "abort"),
    (1, "decline"),
    (0, "adjourn"),
    (1, "adjourn"),
    (0, "stored"),
    (1, "stored anna"),
    (0, "match boris"),
    (1, "accept"),
    (0, "Bc4"),
    (1, "resign"),
    (0, "history"),
    (2, "history anna"),
    (3, "foo"),
    (3, "s"),
    (3, "seek 5 0 u"),
    (2, "sought"),
    (2, "unseek"),
    (3, "unseek"),
    (0, "-channel 50"),
    (1, "=channel"),
    (0, "znotify"),
    (0, "vars"),
    (1, "observe 99"),
    (2, "finger nobody"),
    (3, "tell nobody hi"),
)

DAY = re.compile(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b")
MONTH = re.compile(r"\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b")
DIGITS = re.compile(r"\d+")
TELNET = re.compile(rb"\xff[\xfb-\xfe].")


def normalise(raw: bytes) -> str:
    """The bytes a user got in one step, as comparable text (line ends kept visible)."""
    text = TELNET.sub(b"", raw).decode("latin-1")
    text = text.replace("\n\r", "\n").replace("\r\n", "\n")
    text = DIGITS.sub("#", MONTH.sub("Mon", DAY.sub("Day", text)))
    return text


@dataclass
class User:
    name: str
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    got: bytearray = field(default_factory=bytearray)


async def read_until(user: User, marker: bytes, timeout: float = 5.0) -> bytes:
    data = bytearray()
    while marker not in data:
        chunk = await asyncio.wait_for(user.reader.read(4096), timeout)
        if not chunk:
            raise ConnectionError(f"{user.name}: closed while waiting for {marker!r}")
        data += chunk
    return bytes(data)


async def log_in(port: int, name: str, password: str) -> tuple[User, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    user = User(name, reader, writer)
    seen = await read_until(user, b"login: ")
    writer.write(name.encode() + b"\n")
    seen += await read_until(user, b"password: ")
    writer.write(password.encode() + b"\n")
    seen += await read_until(user, b"fics% ")
    return user, seen


async def drain(users: list[User], quiet: float) -> list[bytes]:
    """Read every user's output until none has had anything for ``quiet`` seconds."""
    got = [bytearray() for _ in users]
    while True:
        reads = [asyncio.ensure_future(user.reader.read(65536)) for user in users]
        done, pending = await asyncio.wait(reads, timeout=quiet)
        for read in pending:
            read.cancel()
        if not done:
            return [bytes(chunk) for chunk in got]
        for index, read in enumerate(reads):
            if read in done and not read.cancelled():
                got[index] += read.result()


async def evening(port: int, accounts: list[tuple[str, str]], quiet: float) -> list[list[str]]:
    """Each step's normalised output, one string per user; step 0 is the logins."""
    users = []
    logins = []
    for name, password in accounts:
        user, seen = await log_in(port, name, password)
        users.append(user)
        logins.append(normalise(seen))
    await drain(users, quiet)
    steps = [logins]
    for index, line in STEPS:
        users[index].writer.write(line.encode() + b"\n")
        steps.append([normalise(chunk) for chunk in await drain(users, quiet)])
    for user in users:
        user.writer.write(b"quit\n")
        user.writer.close()
    return steps


def report(mine: list[list[str]], theirs: list[list[str]], names: list[str]) -> str:
    labels = ["(logins)"] + [f"{names[index]}: {line}" for index, line in STEPS]
    same = sum(1 for a, b in zip(mine, theirs, strict=True) if a == b)
    matched = total = 0
    for ours_step, ref_step in zip(mine, theirs, strict=True):
        for ours, ref in zip(ours_step, ref_step, strict=True):
            ref_lines = ref.splitlines()
            blocks = difflib.SequenceMatcher(None, ref_lines, ours.splitlines(), autojunk=False)
            matched += sum(block.size for block in blocks.get_matching_blocks())
            total += len(ref_lines)
    out = [
        f"# FICS transcript: {same} of {len(labels)} steps identical; "
        f"{matched} of the reference's {total} lines found in order",
        "",
    ]
    for label, a, b in zip(labels, mine, theirs, strict=True):
        if a == b:
            continue
        out.append(f"## {label}")
        for name, ours, ref in zip(names, a, b, strict=True):
            if ours == ref:
                continue
            diff = difflib.unified_diff(
                ref.splitlines(), ours.splitlines(), "reference", "icswire", lineterm="", n=1
            )
            out += [f"### {name}", "```diff", *list(diff)[2:], "```"]
        out.append("")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--icswire-port", type=int, required=True)
    parser.add_argument("--reference-port", type=int, required=True)
    parser.add_argument("--account", action="append", required=True, help="NAME:PASSWORD, 4 times")
    parser.add_argument("--quiet", type=float, default=0.4, help="seconds of silence ending a step")
    parser.add_argument("--out", default="-")
    args = parser.parse_args()
    accounts = [tuple(account.split(":", 1)) for account in args.account]
    if len(accounts) != 4:
        parser.error("give --account four times")
    mine = asyncio.run(evening(args.icswire_port, accounts, args.quiet))
    theirs = asyncio.run(evening(args.reference_port, accounts, args.quiet))
    text = report(mine, theirs, [name for name, _ in accounts])
    if args.out == "-":
        print(text)
    else:
        with open(args.out, "w") as handle:
            handle.write(text + "\n")
        print(text.splitlines()[0])


if __name__ == "__main__":
    main()

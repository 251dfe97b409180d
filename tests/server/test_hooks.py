from __future__ import annotations

from icswire.protocol.datagrams import DG
from icswire.protocol.events import Style12Line
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.dispatch.hub import Command, Registry
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.batch import Batch
from icswire.server.features.examine import games

from .support import quiet
from .test_watching import user


async def start(server: Server, w: str, b: str):
    batch = Batch(CN.CN_MATCH, None)
    online = server.world.online
    game = await server.games.start(online[w], online[b], Terms(initial=5), batch)
    batch.flush()
    return game


async def test_hooks(server: Server) -> None:
    teacher = await user(server, "Teacher", (), "set style 12")
    await teacher.command("examine")
    await teacher.command("e4")
    assert [b.record.pretty_move for b in teacher.events if isinstance(b, Style12Line)][-1] == "e4"
    white = await user(server, "Whitey", (15, 20))
    black = await user(server, "Blacky", (), "set style 12")
    fan = await user(server, "Fan", (18,), "set style 12")
    await fan.command("follow blacky")
    game = await start(server, "whitey", "blacky")
    assert game.number == 2  # 1 is examined
    await fan.expect_dg(DG.STARTED_OBSERVING, gamenumber=2)
    await fan.settle()
    await fan.command("flip")
    await white.send("e2e4")
    board = await fan.expect(lambda e: isinstance(e, Style12Line) and e.record.pretty_move == "e4")
    assert board.record.flip is True
    wb = await black.expect(lambda e: isinstance(e, Style12Line) and e.record.pretty_move == "e4")
    assert wb.record.flip is True
    lister = await user(server, "Tomato", (12,))
    await lister.send("set-2 12 1")
    await lister.expect_dg(DG.GAME_STARTED, gamenumber=1, played_game=False)
    await lister.expect_dg(DG.GAME_STARTED, gamenumber=2, played_game=True)
    await fan.close()
    await white.expect_dg(DG.PLAYERS_IN_MY_GAME, playername="Fan", symbol="X")
    await teacher.close()
    await quiet(server)  # the teacher's connection is gone
    assert server.core.state(games.Examinations).games == {}
    late = await user(
        server,
        "Late",
        (12,),
    )
    await late.settle()
    assert [r.gamenumber for r in late.received(DG.GAME_STARTED)] == [2]


def test_find_command_answers_again_after_commands_are_added() -> None:
    """find_command remembers its answers, and forgets them when commands come."""

    async def handler(*args: object) -> None:
        return None

    registry = Registry()
    registry.add_commands([Command("observe", 80, handler, "observe N")])
    assert registry.find_command("obs") == registry.commands["observe"]
    assert registry.find_command("e2e4") == []
    found = registry.find_command("o")
    assert isinstance(found, Command) and found.name == "observe"
    registry.add_commands(
        [Command("oldmoves", 81, handler, "oldmoves"), Command("kill", 1, handler, "", admin=True)]
    )
    assert registry.find_command("o") == ["observe", "oldmoves"]
    assert (
        registry.find_command("k") == [] and registry.find_command("k", admin=True).name == "kill"
    )  # type: ignore[union-attr]
    answer = registry.find_command("o")
    assert isinstance(answer, list)
    answer.append("mine")
    assert registry.find_command("o") == ["observe", "oldmoves"]

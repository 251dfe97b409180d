"""Game terms: server-side premove (``iset premove 1``), time odds, zero-minute and untimed
games, and the abort, adjourn and takeback rules at each ply."""

from __future__ import annotations

import asyncio

from icswire.protocol.datagrams import DG
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.boards import BLACK, WHITE
from icswire.server.features.play.games import Game

from .client import Client
from .support import bits, connect, grams, start_game, texts

GRAMS = (DG.MY_GAME_STARTED, DG.ILLEGAL_MOVE, DG.DISABLE_PREMOVE, DG.SEND_MOVES)


async def players(server: Server) -> tuple[Client, Client]:
    white = await connect(server, GRAMS)
    await white.login("Whitey", None, f"level2settings={bits(*GRAMS)}")
    black = await connect(server, GRAMS)
    await black.login("Blacky", None, f"level2settings={bits(*GRAMS)}")
    return white, black


async def test_a_premove_is_kept_and_played_when_the_turn_comes(server: Server) -> None:
    white, black = await players(server)
    await black.command("iset premove 1")
    game = await start_game(server, "Whitey", "Blacky", Terms(initial=5))
    await white.settle()
    await black.settle()
    said = await black.command("e5")  # White's turn: kept
    assert "Premove stored: e5" in texts(said)
    assert not game.moves
    await white.send("e4")
    await white.settle()
    await black.settle()
    assert [m.san for m in game.moves] == ["e4", "e5"]
    assert game.moves[1].time_ms == 0  # played the moment the turn came
    assert game.clock_ms[BLACK] == 5 * 60_000
    assert game.board.turn == WHITE


async def test_a_premove_illegal_when_the_turn_comes_is_dropped(server: Server) -> None:
    white, black = await players(server)
    await black.command("iset premove 1")
    game = await start_game(server, "Whitey", "Blacky", Terms(initial=5))
    await white.settle()
    await black.settle()
    await black.command("e6")
    await black.command("Bb4")  # replaces e6; not legal after e4
    await white.send("e4")
    await white.settle()
    await black.settle()
    await black.expect_text("Illegal move (Bb4).")
    illegal = await black.expect_dg(DG.ILLEGAL_MOVE)
    assert illegal.move == "Bb4"
    assert [m.san for m in game.moves] == ["e4"]
    assert game.board.turn == BLACK


async def test_without_premove_a_move_out_of_turn_is_refused(server: Server) -> None:
    white, black = await players(server)
    game = await start_game(server, "Whitey", "Blacky", Terms(initial=5))
    await white.settle()
    await black.settle()
    said = await black.command("e5")
    assert "It is not your move." in texts(said)
    await white.send("e4")
    await white.settle()
    await black.settle()
    assert [m.san for m in game.moves] == ["e4"]
    assert not black.received(DG.DISABLE_PREMOVE)


async def test_movecase_0_reads_piece_letters_in_either_case_and_1_only_as_typed(
    server: Server,
) -> None:
    white, black = await players(server)
    game = await start_game(server, "Whitey", "Blacky", Terms(initial=5))
    await white.settle()
    await black.settle()
    await white.command("nf3")  # movecase 0, FICS's default
    assert [m.san for m in game.moves] == ["Nf3"]
    await black.command("iset movecase 1")
    await black.send("nf6")
    assert await black.expect_text("Illegal move (nf6).")
    await black.command("Nf6")
    assert [m.san for m in game.moves] == ["Nf3", "Nf6"]


async def test_iset_refuses_the_ivariables_the_server_does_not_act_on(server: Server) -> None:
    (client, _) = await players(server)
    for name in ("smartmove", "seekca", "pinginfo", "fr", "xdr", "audiochat"):
        said = await client.command(f"iset {name} 1")
        assert texts(said)[-1] == f'No such ivariable "{name}".'
    assert texts(await client.command("iset premove 1"))[-1] == "premove set."


async def test_promote_sets_the_piece_a_pawn_becomes_when_a_move_names_none(
    server: Server,
) -> None:
    white, black = await players(server)
    assert texts(await white.command("promote k")) == ["Promotion piece set to KNIGHT."]
    assert texts(await white.command("set promote x")) == ["Bad value given for variable promote."]
    assert texts(await white.command("promote")) == ["Usage: promote <q|r|b|n>"]
    game = await start_game(server, "Whitey", "Blacky", Terms(initial=5))
    await white.settle()
    await black.settle()
    for white_move, black_move in (("e4", "d5"), ("exd5", "c6"), ("dxc6", "Qb6"), ("cxb7", "Kd8")):
        await white.command(white_move)
        await black.command(black_move)
    await white.command("bxa8")
    assert game.moves[-1].san == "bxa8=N"


async def test_automail_and_pgn_are_kept_and_say_no_mail_is_sent(server: Server) -> None:
    client, _ = await players(server)
    assert texts(await client.command("set automail 1")) == [
        "Your games will be mailed to you.",
        'This server sends no mail: "history", "smoves" and "pgn" show your games.',
    ]
    assert texts(await client.command("set pgn 0")) == [
        "Games will now be mailed to you in FICS format."
    ]
    said = texts(await client.command("vars"))
    assert any("automail=1" in line for line in said)
    assert any("pgn=0" in line for line in said)


async def test_kiblevel_hides_kibitzes_from_players_rated_below_it(server: Server) -> None:
    white, black = await players(server)
    assert texts(await black.command("set kiblevel 1200")) == ["Kibitz level now set to: 1200."]
    await start_game(server, "Whitey", "Blacky", Terms(initial=5))
    await white.settle()
    await black.settle()
    assert "(kibitzed to 0 players)" in texts(await white.command("kibitz hello"))  # a guest
    await black.command("set kiblevel 0")
    assert "(kibitzed to 1 player)" in texts(await white.command("kibitz hello"))


# -- time odds, zero-minute and untimed games -----------------------------------------------


async def registered(server: Server, name: str) -> Client:
    await asyncio.to_thread(server.store.add_user, name, "secret")
    client = await connect(server, GRAMS)
    await client.login(name, "secret", f"level2settings={bits(*GRAMS)}")
    await client.command("iset nowrap 1")
    return client


async def test_time_odds_reach_the_clocks_the_datagrams_moves_and_games(server: Server) -> None:
    alpha = await registered(server, "Alpha")
    beta = await registered(server, "Beta")
    said = texts(await alpha.command("match Beta 5 0 3 0 rated"))
    assert said == [
        "Game is non-standard - reverting to unrated",
        "Issuing: Alpha (----) Beta (----) unrated non-standard 5 0 : 3 0.",
    ]
    await beta.command("accept")
    started = await alpha.expect_dg(DG.MY_GAME_STARTED)
    assert (started.whitename, started.rated) == ("Alpha", False)  # the challenger is White
    assert (started.white_initial, started.white_increment) == (5, 0)
    assert (started.black_initial, started.black_increment) == (3, 0)
    game = server.games.by_number[1]
    assert game.clock_ms == {WHITE: 300_000, BLACK: 180_000}
    await alpha.settle()
    moves = texts(await alpha.command("moves"))
    assert (
        "Unrated non-standard match, initial time: 5 minutes, increment: 0 seconds"
        " AND 3 minutes, increment: 0 seconds." in moves
    )
    assert "[ nu  5   0]" in game.games_row(icc=False)  # FICS's type letter n
    await server.games.flush()
    stored = await asyncio.to_thread(server.store.game, game.game_id)
    assert stored is not None
    assert (stored.black_initial, stored.black_increment) == (3, 0) and stored.odds


async def test_a_zero_minute_game_with_an_increment_is_lightning_and_starts_at_ten_seconds(
    server: Server,
) -> None:
    white, black = await players(server)
    said = texts(await white.command("match Blacky 0 2 white"))
    assert said == ["Issuing: Whitey (----) [white] Blacky (----) unrated lightning 0 2."]
    await black.command("accept")
    await white.expect_dg(DG.MY_GAME_STARTED)
    game = server.games.by_number[1]
    assert game.terms.rating_type == "Bullet"
    assert game.clock_ms == {WHITE: 10_000, BLACK: 10_000}
    await white.settle()
    await white.send("e4")
    await white.settle()
    assert 11_000 < game.clock_ms[WHITE] <= 12_000  # the increment added


async def test_an_untimed_game_is_unrated_its_clocks_never_run_and_premove_is_off(
    server: Server,
) -> None:
    alpha = await registered(server, "Alpha")
    beta = await registered(server, "Beta")
    await beta.command("iset premove 1")
    said = texts(await alpha.command("match Beta 0 0 rated white"))
    assert said == [
        "Game is untimed - reverting to unrated",
        "Issuing: Alpha (----) [white] Beta (----) unrated untimed.",
    ]
    await beta.command("accept")
    await beta.expect_dg(DG.DISABLE_PREMOVE, gamenumber=1)
    game = server.games.by_number[1]
    assert game.terms.untimed and not game.terms.rated and game.timer is None
    await asyncio.sleep(0.05)
    assert game.clock_now(WHITE) == 0 and not server.games.flag_fell(game)
    await beta.settle()
    said = texts(await beta.command("e5"))
    assert "It is not your move." in said
    await alpha.send("e4")
    await alpha.settle()
    assert [m.san for m in game.moves] == ["e4"] and game.timer is None
    assert "[ uu  0   0]" in game.games_row(icc=False)


# -- abort, adjourn, takeback and flag at each ply (lasker's gameproc.c) ---------------------


async def _ply(server: Server, white: Client, black: Client, *moves: str) -> Game:
    game = await start_game(server, "Whitey", "Blacky", Terms(initial=5))
    await white.settle()
    await black.settle()
    for index, san in enumerate(moves):
        mover = white if index % 2 == 0 else black
        await mover.command(san)
    await white.settle()
    await black.settle()
    return game


async def test_abort_at_ply_0_and_1_is_at_once_and_from_ply_2_a_request(server: Server) -> None:
    white, black = await players(server)
    await _ply(server, white, black)
    await black.send("abort")  # ply 0
    await black.expect_text("{Game 1 (Whitey vs. Blacky) Game aborted by Blacky at move 1} *")
    await _ply(server, white, black, "e4")
    await white.send("abort")  # ply 1
    await white.expect_text("Game aborted by Whitey at move 1} *")
    game = await _ply(server, white, black, "e4", "e5")
    assert texts(await white.command("abort")) == ["Abort request sent."]  # ply 2
    assert server.games.by_number.get(game.number) is game
    await black.send("abort")
    await black.expect_text("Game aborted by mutual agreement} *")


async def test_takeback_counts_the_plies_there_are(server: Server) -> None:
    white, black = await players(server)
    game = await _ply(server, white, black)
    assert texts(await white.command("takeback")) == ["There are no moves in your game."]
    await white.command("e4")
    await black.settle()
    assert texts(await black.command("takeback 2")) == ["There are only 1 half moves in your game."]
    await black.command("e5")
    await white.settle()
    assert texts(await white.command("takeback 2")) == ["Takeback request sent."]
    await black.settle()
    assert texts(await black.command("takeback 3")) == ["There are only 2 half moves in your game."]
    await white.expect_text("Blacky has declined the takeback request.")
    assert not game.requests
    assert texts(await white.command("takeback 0")) == ["You can't takeback less than 1 move."]


async def test_adjourn_needs_two_registered_players(server: Server) -> None:
    white, black = await players(server)
    await _ply(server, white, black, "e4")
    assert texts(await white.command("adjourn")) == [
        'Both players must be registered to adjourn a game.  Use "abort".'
    ]


async def test_courtesyabort_and_courtesyadjourn_end_a_game_whose_opponent_has_no_time(
    server: Server,
) -> None:
    alpha = await registered(server, "Alpha")
    beta = await registered(server, "Beta")
    for done, mode in (("aborted", "courtesyaborted"), ("adjourned", "courtesyadjourned")):
        await alpha.command("set autoflag 0")
        game = await start_game(server, "Alpha", "Beta", Terms(initial=5))
        await alpha.settle()
        await beta.settle()
        await alpha.command("e4")
        await beta.command("e5")
        await alpha.command("Nf3")
        game.clock_ms[BLACK] = -1000  # Beta's flag is down, nobody called it
        command = "abort" if done == "aborted" else "adjourn"
        await alpha.settle()
        said = texts(await alpha.command(command))
        assert f"Since you have time, and your opponent has none, the game has been {done}." in said
        await beta.expect_text(f"Your opponent has {done} the game rather than calling your flag.")
        await beta.expect_text(f"Game {mode} by Alpha}} *")
        assert not server.games.by_number


async def test_an_untimed_game_cannot_be_flagged(server: Server) -> None:
    white, _ = await players(server)
    await start_game(server, "Whitey", "Blacky", Terms(initial=0, increment=0))
    await white.settle()
    assert texts(await white.command("flag")) == ["You can't flag an untimed game."]


async def test_no_flag_before_both_players_have_moved(server: Server) -> None:
    """lasker's com_flag: fewer than two half-moves, abort instead."""
    white, black = await players(server)
    await start_game(server, "Whitey", "Blacky", Terms(initial=1))
    await white.settle()
    early = ["You cannot flag before both players have moved.", "Use abort instead."]
    assert texts(await white.command("flag")) == early
    await white.command("e4")
    await black.settle()
    assert texts(await black.command("flag")) == early
    await black.command("e5")
    await white.settle()
    assert texts(await white.command("flag")) == [
        "Opponent is not out of time, wait for server autoflag."
    ]


async def test_zero_minute_and_untimed_seeks_are_posted_and_played(server: Server) -> None:
    white, black = await players(server)
    await white.command("seek 0 2")
    await black.settle()
    await black.command("play 1")
    await white.settle()
    await white.expect_dg(DG.MY_GAME_STARTED)
    game = server.games.by_number[1]
    assert (game.terms.initial, game.terms.increment, game.terms.fics_type) == (0, 2, "lightning")
    await white.command("abort")
    await white.settle()
    await black.settle()
    posted = texts(await white.command("seek 0 0"))
    index = posted[0].split()[-1].rstrip(".")
    await black.settle()
    (started,) = grams(await black.command(f"play {index}"), DG.MY_GAME_STARTED)
    assert (started.white_initial, started.black_initial, started.rated) == (0, 0, False)
    assert server.games.by_number[started.gamenumber].terms.fics_type == "untimed"


async def test_an_icc_challenger_asking_for_black_gives_its_own_time_first(server: Server) -> None:
    white, black = await players(server)  # both speak ICC (level 2)
    await white.command("match Blacky 3 0 5 0 black")
    await black.settle()
    await black.command("accept")
    await black.settle()
    (started,) = black.received(DG.MY_GAME_STARTED)
    assert (started.whitename, started.blackname) == ("Blacky", "Whitey")
    assert (started.white_initial, started.black_initial) == (5, 3)


async def test_set_takes_laskers_other_names_of_variables(server: Server) -> None:
    client, _ = await players(server)
    assert texts(await client.command("set i_login 1")) == ["You will now hear logins/logouts."]
    assert texts(await client.command("set ginform 1")) == ["You will now hear game results."]
    assert server.world.online["whitey"].variables["pin"] == 1


async def test_tourney_players_match_only_each_other(server: Server) -> None:
    white, black = await players(server)
    await white.command("match Blacky 5 0")
    await black.settle()
    assert texts(await black.command("set tourney 1")) == ["Your tournament variable is now set."]
    await white.expect_text("Blacky declines the match offer.")
    await white.settle()
    said = texts(await white.command("match Blacky 5 0"))
    assert said == ["Blacky is in a tournament, and cannot accept other challenges."]
    said = texts(await black.command("match Whitey 5 0"))
    assert said == ["You may only match players with their tournament variable set."]


async def test_untimed_and_time_odds_games_show_no_ratings(server: Server) -> None:
    """lasker's GetRating has no rating for TYPE_UNTIMED and TYPE_NONSTANDARD: their game
    lines show ---- for a registered player (the challenge, the Creating line, games)."""
    alpha = await registered(server, "Alpha")
    beta = await registered(server, "Beta")
    for name in ("alpha", "beta"):
        for kind in ("Bullet", "Blitz", "Standard"):
            server.world.online[name].ratings[kind] = (1700, 0)
    for line in ("match Beta 0 0 white", "match Beta 5 0 3 0 white"):
        issued = texts(await alpha.command(line))
        assert issued[-1].startswith("Issuing: Alpha (----) [white] Beta (----) unrated")
        await beta.command("accept")
        creating = await alpha.expect(lambda e: getattr(e, "text", "").startswith("Creating:"))
        assert creating.text.startswith("Creating: Alpha (----) Beta (----) unrated")
        game = server.games.by_player[server.world.online["alpha"]]
        row = game.games_row(icc=False).split()
        assert row[:5] == [str(game.number), "----", "Alpha", "----", "Beta"]
        await alpha.command("abort")
        await alpha.settle()
    await alpha.command("match Beta 5 0 white")
    await beta.command("accept")
    creating = await alpha.expect(lambda e: getattr(e, "text", "").startswith("Creating:"))
    assert creating.text.startswith("Creating: Alpha (1700) Beta (1700) unrated blitz")

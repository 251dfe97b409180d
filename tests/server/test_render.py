"""Rendering: one unit per receiver, shared among receivers with the same settings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from icswire.protocol import datagrams as dg
from icswire.protocol.decoder import Decoder
from icswire.protocol.events import Prompt, Text, UnitEnd, UnitStart
from icswire.server.core.render.batch import Batch, Data, Datagram


@dataclass(eq=False)
class Receiver:
    """The part of a Session that rendering uses."""

    name: str
    level1: int = 0
    level2: frozenset[int] = frozenset()
    closed: bool = False
    wrap_width: int = 0  # no wrapping (set width, iset nowrap)
    remote: None = None  # a user of this node (not of another node of a cluster)
    sent: list[bytes] = field(default_factory=list)

    def prompt_bytes(self) -> bytes:
        return b"fics% "

    @property
    def talks_icc(self) -> bool:
        return bool(self.level1 or self.level2)

    def wrap_key(self, is_issuer: bool) -> Any:
        if self.level1 & 1:
            return (self.level1, is_issuer)
        return (0, is_issuer, self.prompt_bytes(), self.talks_icc)

    def send_unit(self, data: bytes) -> None:
        self.sent.append(data)


@dataclass(frozen=True, eq=False)
class CountingTell(Data):
    """A text line, replaced by its datagram for those who have it on; counts renders."""

    line: str
    record: Any
    renders: ClassVar[int] = 0

    def __post_init__(self) -> None:
        kinds = frozenset({self.record.dg})
        object.__setattr__(self, "replaced_by", kinds)
        object.__setattr__(self, "datagram_kinds", kinds)

    def text(self, receiver: Any) -> Sequence[str]:
        return (self.line,)

    def datagrams(self, receiver: Any) -> Iterable[Any]:
        return (self.record,) if self.record.dg in receiver.level2 else ()

    def render(self, receiver: Any) -> bytes:
        CountingTell.renders += 1
        return super().render(receiver)


def test_receivers_with_the_same_settings_share_one_rendering() -> None:
    issuer = Receiver("fred")
    plain = [Receiver(f"p{n}") for n in range(100)]
    units = [Receiver(f"u{n}", level1=1) for n in range(100)]
    grams = [Receiver(f"g{n}", level2=frozenset({32})) for n in range(100)]
    shout = CountingTell("fred shouts: hi", dg.Shout("fred", "", 0, "hi"))
    batch = Batch(103, issuer)  # type: ignore[arg-type]
    batch.add_all([*plain, *units, *grams], shout)  # type: ignore[list-item]
    CountingTell.renders = 0
    batch.flush()
    assert CountingTell.renders == 3
    assert plain[0].sent[0] is plain[99].sent[0]
    assert plain[0].sent[0] == b"\n\rfred shouts: hi\n\rfics% "  # FICS's line ends
    assert Decoder().feed(plain[0].sent[0]) == [
        Text("", "\n\r"),
        Text("fred shouts: hi", "\n\r"),
        Prompt("fics% "),
    ]
    assert Decoder().feed(units[5].sent[0]) == [
        UnitStart(103, "fred", None, 1),
        Text("fred shouts: hi", "\r\n"),
        UnitEnd(1),
    ]
    assert Decoder({32}).feed(grams[7].sent[0])[1] == dg.Shout("fred", "", 0, "hi")


def test_a_datagram_reaches_only_those_who_have_it_on() -> None:
    issuer = Receiver("fred", level2=frozenset({124}))
    batch = Batch(216, issuer)  # type: ignore[arg-type]
    batch.add(issuer, Datagram(dg.Set2(124, True)))  # type: ignore[arg-type]
    off = Receiver("joe")
    batch.add(off, Datagram(dg.Set2(124, True)))  # type: ignore[arg-type]
    batch.flush()
    assert Decoder({124}).feed(issuer.sent[0]) == [dg.Set2(124, True), Prompt("fics% ")]
    assert off.sent == []


def test_0xff_in_a_datagram_or_a_unit_tag_is_doubled_on_the_wire() -> None:
    """A tell holding ff fa 18 must not reach a level 2 receiver as IAC SB (it would
    swallow what follows); the issuer's own unit header carries its tag doubled too."""
    issuer = Receiver("fred", level1=5, level2=frozenset({31}))
    tell = dg.PersonalTell("fred", "", "x\xff\xfa\x18", 1)
    batch = Batch(101, issuer, tag="t\xff")  # type: ignore[arg-type]
    batch.add(issuer, Datagram(tell))  # type: ignore[arg-type]
    batch.flush()
    (sent,) = issuer.sent
    assert sent.count(b"\xff") == 4 and b"\xff\xff\xfa" in sent and b"t\xff\xff\n" in sent
    assert Decoder({31}).feed(sent) == [UnitStart(101, "*", "t\xff", 1), tell, UnitEnd(1)]

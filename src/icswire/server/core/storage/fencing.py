"""Fencing the nodes of a cluster (docs/cluster.md, "Failure"): a node declared dead
writes nothing more of its games.

Each node takes an **epoch** when it joins (:meth:`Nodes.join`: its row of the ``nodes``
table, one more than the last). Declaring a node dead
(:meth:`~.games.Games.declare_dead`) takes the epoch it had, in the same transaction as the
adjournment of its games. Every write of a node about the games it holds
(:func:`hold`, in that write's transaction) first reads its row, locked for share: with
another epoch there the write is refused (:class:`Fenced`) and nothing of it is written. The
lock orders the two: a declaration waits for a write under way, and a write after a
declaration sees it; so a game the cluster adjourned stays as the cluster left it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Connection, insert, select, update

from icswire.server.core.storage.database import Database, Fence, StoreUnavailable
from icswire.server.core.storage.schema import nodes

__all__ = ["Fence", "Fenced", "Nodes", "hold"]


class Fenced(StoreUnavailable):
    """This node of a cluster was declared dead: its epoch is not its row's any more, and
    the write was refused (it will never be taken). A kind of :class:`StoreUnavailable`
    for the callers that only need to know that nothing was written."""


def hold(conn: Connection, fence: Fence | None) -> None:
    """In a write's transaction: :class:`Fenced` unless ``fence``'s node still has its
    epoch, its row locked for share until the transaction ends. None: not a cluster."""
    if fence is None:
        return
    epoch = conn.scalar(
        select(nodes.c.epoch).where(nodes.c.name == fence.node).with_for_update(read=True)
    )
    if epoch != fence.epoch:
        if fence.fenced is not None:
            fence.fenced()
        raise Fenced(f"node {fence.node} was declared dead (epoch {epoch}, not {fence.epoch})")


class Nodes(Database):
    """The nodes of a cluster and their epochs."""

    def join(self, node: str) -> int:
        """Take a new epoch for ``node`` (joining the cluster, or again after it was
        declared dead) and return it."""
        now = datetime.now(UTC)
        with self._begin() as conn:
            epoch = conn.scalar(select(nodes.c.epoch).where(nodes.c.name == node).with_for_update())
            if epoch is None:
                conn.execute(insert(nodes).values(name=node, epoch=1, joined=now))
                return 1
            conn.execute(
                update(nodes).where(nodes.c.name == node).values(epoch=epoch + 1, joined=now)
            )
            return int(epoch) + 1

    def epoch(self, node: str) -> int | None:
        """``node``'s epoch now (None: it never joined)."""
        with self._begin() as conn:
            found = conn.scalar(select(nodes.c.epoch).where(nodes.c.name == node))
        return None if found is None else int(found)

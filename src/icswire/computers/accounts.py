"""The accounts of the server's own computers, made ready in its store before they log in.

An account that does not exist is registered; one that exists is taken only if it is on
the server's computer list already (it was made so before, by ``--computer`` or by an
administrator's ``icswire user computer NAME``): a person's account of the same name is
never taken over. Each start gives the account a new random password, which the bot gets
in the process and nobody else ever sees; the account is put on the computer list (its
name shows ``(C)``) and its formula set to ``!computer``, so that two computers never pair
with each other's seeks nor challenge each other.
"""

from __future__ import annotations

import secrets

from icswire.server.core.storage.store import LooksLike, Store

__all__ = ["FORMULA", "AccountTaken", "ready_account"]

#: The formula every computer keeps: no games with other computers.
FORMULA = "!computer"


class AccountTaken(Exception):
    """The computer's name is a person's account (or passes for one)."""


def ready_account(store: Store, name: str) -> str:
    """Make the account ``name`` ready to log in as a computer; its new password.
    :class:`AccountTaken` when the name belongs to somebody else."""
    password = secrets.token_urlsafe(24)
    existing = store.load(name)
    if existing is None:
        try:
            store.add_user(name, password)
        except LooksLike as exc:
            raise AccountTaken(f"{name} looks too much like the account {exc.existing}") from None
    elif "computer" not in existing.server_lists:
        raise AccountTaken(
            f"{existing.name} is somebody's account, not on the computer list"
            f" (icswire user computer {existing.name} gives it to the computers)"
        )
    else:
        store.set_password(name, password)
    store.set_on_server_list("computer", name, True)
    store.save_setting(name, "formula", FORMULA)
    return password

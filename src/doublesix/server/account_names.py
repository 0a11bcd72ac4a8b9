"""What an account's name and password may be (pure rules, no I/O).

A name is 2–24 characters of ASCII letters, digits, ``_`` and ``-``, with at
least one letter. Letters beyond ASCII are refused on purpose: NFKC and
case folding do not make a Cyrillic ``а`` collide with a Latin ``a``, so a
name of such letters could pass for another player's; within ASCII the
look-alikes are few and folded here.

``name_key`` is what makes two names the same name: case-folded, and the
characters people mistake for each other (``0``/``o``, ``1``/``l``/``i``,
``5``/``s``, ``8``/``b``) folded to one. It is unique among accounts, and a
guest may not use a name whose key an account holds.

A name may not read as a bot's. Bots are shown as ``Bot 2 · expert``:
refused are names that begin or end with "bot" in any spelling (``Bot2``,
``bot_3``, ``B0t-1``, ``greedy-bot``), and the bot levels' own names with
or without digits and separators (``expert``, ``Greedy_2``, ``P1MC``).

Nor may it read as an erased account's pseudonym (``erased-3f9a1c``: ``pseudonym``): the
names that begin with "erased" in any spelling are those, so that nobody, account or
guest, ever plays under the name that an erased player's games show.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from doublesix.bots import BOTS

NAME_MIN = 2
NAME_MAX = 24
PASSWORD_MIN = 8
PASSWORD_MAX = 256
"""Characters of a password; longer ones are refused (not cut: a cut would surprise)."""

_NAME = re.compile(r"[A-Za-z0-9_-]+", re.ASCII)
_LOOK_ALIKE = str.maketrans({"0": "o", "1": "l", "i": "l", "5": "s", "8": "b"})
_BOT_LOOK_ALIKE = str.maketrans({"3": "e", "4": "a", "7": "t", "_": None, "-": None, " ": None})


class Refusal(StrEnum):
    """Why an account request is refused (the HTTP status is the routes' choice)."""

    NAME = "name"
    """The name breaks a rule of this module."""
    NAME_TAKEN = "name_taken"
    WEAK_PASSWORD = "weak_password"
    WRONG_PASSWORD = "wrong_password"
    """Unknown name or wrong password: the same refusal, the same message."""
    RATE_LIMITED = "rate_limited"
    LOGGED_IN = "logged_in"
    NO_ACCOUNT = "no_account"
    CLOSED = "closed"
    """The account was closed (by its player or the operator): it logs in no more."""
    ERASED = "erased"
    """Its erasure was asked: nothing brings it back (``server/erasure.py``)."""
    OPERATOR = "operator"
    """An operator's own account is erased from the command line only."""


@dataclass
class AccountError(Exception):
    """A refused account request: ``code``, a message for people, the field it is about."""

    code: Refusal
    message: str
    field: str | None = None

    def __str__(self) -> str:
        return self.message


def wrong_login() -> AccountError:
    """The one answer to an unknown name and to a wrong password."""
    return AccountError(Refusal.WRONG_PASSWORD, "wrong name or password", "password")


def name_key(name: str) -> str:
    """The key two names share when people would take them for the same name."""
    return unicodedata.normalize("NFKC", name).casefold().translate(_LOOK_ALIKE)


def _bot_skeleton(name: str) -> str:
    return name_key(name).translate(_BOT_LOOK_ALIKE)


_LEVELS = frozenset(_bot_skeleton(level) for level in BOTS)


def looks_like_bot(name: str) -> bool:
    """Whether ``name`` could pass for a bot's (``Bot 2``, ``B0t-1``, ``expert``, ...)."""
    skeleton = _bot_skeleton(name)
    if skeleton.startswith("bot") or skeleton.endswith("bot"):
        return True
    return skeleton.rstrip("0123456789lozsb") in _LEVELS or skeleton in _LEVELS


ERASED = "erased"
"""How an erased account's pseudonym begins (``pseudonym``)."""


def pseudonym() -> str:
    """A new name for an erased account's games: ``erased-`` and 6 random hex digits."""
    return f"{ERASED}-{secrets.token_hex(3)}"


def looks_erased(name: str) -> bool:
    """Whether ``name`` could pass for an erased account's pseudonym (``Erased-3f9a1c``,
    ``3ra5ed_x``): it begins with "erased" in any spelling."""
    return _bot_skeleton(name).startswith(ERASED)


def check_name(name: str) -> str:
    """``name`` if an account may have it; AccountError (field ``name``) says why not."""
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise AccountError(Refusal.NAME, f"a name is {NAME_MIN} to {NAME_MAX} characters", "name")
    if not _NAME.fullmatch(name):
        raise AccountError(
            Refusal.NAME, "a name is made of letters A-Z, digits, _ and - only", "name"
        )
    if not any(ch.isalpha() for ch in name):
        raise AccountError(Refusal.NAME, "a name has at least one letter", "name")
    if looks_like_bot(name):
        raise AccountError(Refusal.NAME, "that name could pass for a bot's", "name")
    if looks_erased(name):
        raise AccountError(Refusal.NAME, "names that begin with 'erased' are kept", "name")
    return name


def check_password(password: str, name: str, field: str = "password") -> str:
    """``password`` if it may be one (for the account ``name``); AccountError if weak."""
    if len(password) < PASSWORD_MIN:
        raise AccountError(
            Refusal.WEAK_PASSWORD, f"a password has at least {PASSWORD_MIN} characters", field
        )
    if len(password) > PASSWORD_MAX:
        raise AccountError(
            Refusal.WEAK_PASSWORD, f"a password has at most {PASSWORD_MAX} characters", field
        )
    if name_key(password) == name_key(name):
        raise AccountError(Refusal.WEAK_PASSWORD, "a password is not the name", field)
    return password

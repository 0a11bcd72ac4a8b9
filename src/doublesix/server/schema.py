"""The database schema: one set of tables for SQLite and PostgreSQL.

Alembic's migrations (``migrations/versions``) create exactly these tables;
``tests/server/test_store.py`` checks that the two agree.

- ``guests``: a name kept in the ``ds_guest`` cookie; no password.
- ``tables``: a table's settings, ruleset and seed (its deals follow from
  the seed), and the summary of its log: status, the number of its last
  entry (``version``), the turn deadline, the scores and, once finished,
  the game's result (winners, losers, scores). Its ``creator`` and ``status`` are
  indexed together: a guest's unfinished tables are counted site-wide (``routes/tables.py``).
- ``seats``: who sits where, with the seat's secret token and, for a seat
  held for an invited player, its invitation code; once the game is
  finished, the seat's outcome (a player's page counts them).
- ``events``: the table's log, numbered per table from 1: the ``doublesix/1``
  record's events inside the table's own entries (seats, start, plays,
  Continue, chat, rematch, close). The game, its record and every view are
  derived from it.
- ``leases``: which server process runs a table, until when (several
  processes on one database, docs/protocol.md "Many processes").
- ``accounts``: a registered player: the player's id (a guest who registers
  keeps it, and with it the games played as a guest), the name as written and
  its case-folded key (unique), the Argon2 hash of the password.
- ``sessions``: a logged-in browser: the SHA-256 of the session cookie's
  secret (the secret itself is never stored), whose it is, until when.
- ``ratings``: a player's rating per variant family (openskill's ``mu`` and
  ``sigma``) and the games, wins, losses and draws it rests on.
- ``rating_changes``: one row per rated game and player, written in the same
  transaction as the ratings it changed: a game is rated once, and the rows
  are the rating's history.
- ``challenges``: a challenge from a player to named players: the invited
  players and their answers, the table's settings, its status and, once
  accepted by all, the table it made.
- ``tournaments``, ``tournament_players``, ``tournament_games``: arenas, their
  entrants' tallies and the games they made (``server/tournaments.py``); a
  table made for one names it (``tables.tournament``).
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

INT_MAX = 2**31 - 1
"""The largest number an ``sa.Integer`` column holds on both databases (PostgreSQL's INTEGER
has 32 bits): an id or a version a client sends is refused past it, before any query (where
SQLite and asyncpg would raise)."""

guests = sa.Table(
    "guests",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("preset", sa.String(32), nullable=False),
    sa.Column("ruleset", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("timer", sa.Float, nullable=True),
    sa.Column("hints", sa.Boolean, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("creator", sa.String(64), nullable=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("deadline", sa.Float, nullable=True),
    sa.Column("scores", sa.JSON, nullable=False),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False, index=True),
    sa.Column("tournament", sa.String(16), nullable=True),
    sa.Index("ix_tables_creator_status", "creator", "status"),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("player_id", sa.String(64), nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("token", sa.String(64), nullable=True),
    sa.Column("invite", sa.String(32), nullable=True),
    sa.Column("account", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("outcome", sa.String(8), nullable=True),
    sa.UniqueConstraint("token", name="uq_seats_token"),
    sa.Index("ix_seats_player_outcome", "player_id", "outcome"),
)

events = sa.Table(
    "events",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

leases = sa.Table(
    "leases",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("owner", sa.String(64), nullable=False),
    sa.Column("until", sa.Float, nullable=False),
)

# --- players (issue 11) ------------------------------------------------------------

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(24), nullable=False),
    sa.Column("name_key", sa.String(24), nullable=False),
    sa.Column("password", sa.String(255), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Column("silenced_at", sa.Float, nullable=True),
    sa.Column("silenced_until", sa.Float, nullable=True),
    sa.Column("silence_reason", sa.String(200), nullable=True),
    sa.Column("closed_at", sa.Float, nullable=True),
    sa.Column("closed_by", sa.String(16), nullable=True),
    sa.Column("operator", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("erase_requested_at", sa.Float, nullable=True),
    sa.Column("erased_at", sa.Float, nullable=True),
    sa.UniqueConstraint("name_key", name="uq_accounts_name_key"),
    sa.Index(
        "ix_accounts_name_key_pattern",
        "name_key",
        postgresql_ops={"name_key": "varchar_pattern_ops"},
    ),
)
"""``silenced_*``: the operator stopped the account's chat at ``silenced_at`` (none: never),
until ``silenced_until`` (none: until lifted), for ``silence_reason`` (``moderation``).
``closed_*``: the account was closed at ``closed_at`` (none: it is open) by its ``player`` or
the ``operator`` (``Accounts.close``): no login, no page, not ranked; its name stays taken.
``erase_requested_at``: its player or the operator asked for its erasure (it is closed too);
``erased_at``: its personal data is gone (``server/erasure.py``): the row keeps ``name_key``
alone of its name, so that the name stays taken.
``ix_accounts_name_key_pattern``: "Find a player" (``name_key LIKE 'pre%'``) reads a range
of it on PostgreSQL whatever the database's collation (the unique index serves a prefix only
under the C collation); on SQLite it is a plain index, as the unique one."""

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("player_id", sa.String(64), nullable=False, index=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("variant", sa.String(32), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("losses", sa.Integer, nullable=False),
    sa.Column("draws", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)

rating_changes = sa.Table(
    "rating_changes",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("variant", sa.String(32), nullable=False),
    sa.Column("outcome", sa.String(8), nullable=False),
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_rating_changes_player", "player_id", "variant", "at"),
)

follows = sa.Table(
    "follows",
    metadata,
    sa.Column("follower_id", sa.String(64), primary_key=True),
    sa.Column("followed_id", sa.String(64), primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False),
)
"""The accounts an account follows (``server/account_lists.py``): by player id, so a followed
account keeps its followers whatever its name's case."""

blocks = sa.Table(
    "blocks",
    metadata,
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("blocked_id", sa.String(64), primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False),
)
"""The accounts an account blocks (``server/account_lists.py``): by player id."""

mutes = sa.Table(
    "mutes",
    metadata,
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False),
)
"""The names whose chat an account does not read (``server/mutes.py``): names as chat shows
them, a guest's too, so by name and not by player id."""

challenges = sa.Table(
    "challenges",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("player_id", sa.String(64), nullable=False, index=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("account", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("invited", sa.JSON, nullable=False),
    sa.Column("settings", sa.JSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("table_id", sa.String(32), nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)

seeks = sa.Table(
    "seeks",
    metadata,
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("account", sa.Boolean, nullable=False),
    sa.Column("preset", sa.String(32), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("rating", sa.Integer, nullable=True),
    sa.Column("since", sa.Float, nullable=False),
    sa.Column("avoid", sa.JSON, nullable=True),
)
"""The players waiting to be paired (``server/seeks.py``): one seek a player, gone once
paired, withdrawn or left; ``avoid``: the names it is not seated with (null: none)."""

reports = sa.Table(
    "reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("reporter_id", sa.String(64), nullable=False, index=True),
    sa.Column("reporter_name", sa.String(64), nullable=False),
    sa.Column("player_id", sa.String(64), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("reason", sa.String(16), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("table_id", sa.String(32), nullable=True),
    sa.Column("closed_at", sa.Float, nullable=True),
    sa.Column("note", sa.Text, nullable=True),
    sa.Column("message", sa.Text, nullable=True),
)
"""Reports to the site's operator (``server/reports.py``): open until the operator closes
them with a note. ``message``: the words of the private message reported, copied from the
reporter's inbox (``""`` once an erasure took them), so that the operator reads what was said
and no inbox."""

moderation_log = sa.Table(
    "moderation_log",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.Float, nullable=False, index=True),
    sa.Column("operator", sa.String(64), nullable=True),
    sa.Column("action", sa.String(16), nullable=False),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("detail", sa.JSON, nullable=False),
)
"""What the site's operators did, on the web (``operator``: the account's name) or with the
command line (``operator`` null): ``server/moderation_log.py``."""

messages = sa.Table(
    "messages",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("sender_id", sa.String(64), nullable=False),
    sa.Column("recipient_id", sa.String(64), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("read_at", sa.Float, nullable=True),
    sa.Index("ix_messages_pair", "sender_id", "recipient_id", "id"),
)
"""Private messages between accounts (``server/messages.py``), by player id.
``ix_messages_pair``: a thread is the latest of each direction between two, read backwards
by id, and its unread ones are those from the other to the reader."""

conversations = sa.Table(
    "conversations",
    metadata,
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("other_id", sa.String(64), primary_key=True),
    sa.Column("started_by", sa.String(64), nullable=False),
    sa.Column("started_at", sa.Float, nullable=False),
    sa.Column("last_id", sa.Integer, nullable=False),
    sa.Column("unread", sa.Integer, nullable=False),
    sa.Index("ix_conversations_player_last", "player_id", "last_id"),
)
"""Each account's inbox, one row a conversation and side (``server/messages.py``): its
latest message and how many of the other's the account has not read, written in the
transaction that keeps the message, so that an inbox reads one row a conversation."""

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("creator_id", sa.String(64), nullable=True, index=True),
    sa.Column("preset", sa.String(32), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("timer", sa.Float, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("starts_at", sa.Float, nullable=False),
    sa.Column("ends_at", sa.Float, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("ended_at", sa.Float, nullable=True, index=True),
)
"""Tournaments (``server/tournaments.py``): ``creator_id`` is null once its account is
erased; ``status`` upcoming, running, finished or cancelled; ``ended_at`` null until it is
over (``ends_at`` once finished, the moment of its cancel once cancelled)."""

tournament_players = sa.Table(
    "tournament_players",
    metadata,
    sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("joined_at", sa.Float, nullable=False),
    sa.Column("active", sa.Boolean, nullable=False),
    sa.Column("withdrawn", sa.String(8), nullable=True),
    sa.Column("score", sa.Integer, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("streak", sa.Integer, nullable=False),
    sa.Column("free_since", sa.Float, nullable=False),
    sa.Column("table_id", sa.String(32), nullable=True),
    sa.Column("playing", sa.Boolean, nullable=False),
    sa.Index("ix_tournament_players_player", "player_id", "playing"),
)
"""A tournament's entrants (accounts, by player id: the name is the account's) and their
tallies. ``withdrawn``: why it is not ``active`` (``tournaments.Withdrawn``; null while
active). ``table_id``: the table of its latest game of the tournament, being played while
``playing`` (the player is busy: never seated twice); ``free_since``: since when it waits
for a game (bots fill a table of 3-4 after a wait)."""

tournament_games = sa.Table(
    "tournament_games",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column(
        "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False, index=True
    ),
    sa.Column("started_at", sa.Float, nullable=False),
    sa.Column("ended_at", sa.Float, nullable=True, index=True),
    sa.Column("points", sa.JSON, nullable=True),
)
"""The games a tournament made, one a table; written when its players are paired, before
the table is (so the table has no foreign key). ``ended_at``: set once, in the transaction
that scores the game (the key against counting it twice), or when the table closed
without a result; ``points``: what each seat scored (null for a bot's, or no result)."""

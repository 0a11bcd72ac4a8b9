"""What each viewer is sent of a log entry: its events as that seat may see them.

A viewer is a seat, or ``None`` for a spectator. Every frame a client gets
is built here from the log's entries and the viewer's view; a drawn tile
is shown to its drawer only, to nobody else and never to a spectator
(R9, R25). Because the frames follow from the log alone, any process
that holds a table's log can resend exactly what a client missed: an entry's own,
but a restored message's ``rechat``, which holds the words of the chat entry it
names (``restored``: those the table shows again).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import orjson

from doublesix.table.model import JSON, SAID_KINDS, Entry, EventKind

Viewer = int | None


def engine_events(events: Sequence[JSON], viewer: Viewer) -> list[JSON]:
    """The record's events as ``viewer`` sees them: another seat's drawn tile is hidden."""
    return [
        e | {"draw": None} if "draw" in e and (viewer is None or e["seat"] != viewer) else e
        for e in events
    ]


def entry_events(entry: Entry, viewer: Viewer) -> list[JSON]:
    """The ``update`` events of ``entry`` for ``viewer`` (docs/protocol.md)."""
    data, seat = entry.data, entry.seat
    kind = entry.kind
    if kind == EventKind.SEAT:
        return [{"seat": seat, "join": data["name"], "kind": data["kind"]}]
    if kind == EventKind.START:
        return [{"start": True}, {"round": 1}, *engine_events(data["events"], viewer)]
    if kind in (EventKind.PLAY, EventKind.STRAIGHTEN):
        marker = [{"seat": seat, data["stand"]: True}] if data.get("stand") else []
        return marker + engine_events(data["events"], viewer)
    if kind == EventKind.CONTINUE:
        pressed: JSON = {"seat": seat, "continue": True}
        if data.get("stand"):
            pressed[data["stand"]] = True
        if not data.get("next_round"):
            return [pressed]
        return [pressed, {"round": data["round"]}, *engine_events(data["events"], viewer)]
    if kind == EventKind.REMATCH:
        if "table" in data:
            return [{"rematch": data["table"]}]
        return [{"seat": seat, "rematch": data["agree"]}]
    if kind == EventKind.CLOSE:
        return [{"close": data["reason"]}]
    if kind == EventKind.LEAVE:
        return [{"seat": seat, "leave": True}]
    if kind == EventKind.REKEY:
        return [{"seat": seat, "rekey": True}]
    raise ValueError(f"entry {entry.version} ({kind}) has no update events")


def chat_message(entry: Entry) -> JSON:
    """The ``chat`` frame of a chat entry (the same for every reader); of one an operator
    removed, a placeholder that keeps its version (``removed``)."""
    data = entry.data
    if data.get("removed"):
        return removed_message(entry.version)
    out: JSON = {
        "type": "chat",
        "version": entry.version,
        "from": data["from"],
        "seat": entry.seat,
        "channel": data["channel"],
        "at": entry.at,
    }
    if "phrase" in data:
        out["phrase"] = data["phrase"]
    else:
        out["text"] = data["text"]
    return out


def removed_message(version: int) -> JSON:
    """The placeholder of the chat message ``version``, whose words are not shown."""
    return {"type": "chat", "version": version, "removed": True}


def said_frame(entry: Entry, restored: Mapping[int, Entry] | None = None) -> JSON:
    """The frame of a ``chat``, ``unchat`` or ``rechat`` entry: the same for every reader. A
    ``rechat`` holds the message it restored, from ``restored`` (the chat entries shown
    again, by version); one removed again since holds its placeholder."""
    if entry.kind == EventKind.UNCHAT:
        return {"type": "unchat", "version": entry.version, "chat": entry.data["chat"]}
    if entry.kind == EventKind.RECHAT:
        chat = entry.data["chat"]
        said = (restored or {}).get(chat)
        message = removed_message(chat) if said is None else chat_message(said)
        return {"type": "rechat", "version": entry.version, "chat": chat, "message": message}
    return chat_message(entry)


def chat_shown(entries: Iterable[Entry], *, removed: bool = False) -> list[JSON]:
    """The chat messages of a table's log, but those that an operator removed (and did not
    restore); with ``removed``, those in their place as a placeholder marked ``restorable``,
    with its sender's name (an operator's page: one may restore it)."""
    kept = [e for e in entries if e.kind in SAID_KINDS]
    unsaid = set()
    for entry in kept:
        if entry.kind == EventKind.UNCHAT:
            unsaid.add(entry.data["chat"])
        elif entry.kind == EventKind.RECHAT:
            unsaid.discard(entry.data["chat"])
    shown = []
    for entry in (e for e in kept if e.kind == EventKind.CHAT):
        if entry.version not in unsaid:
            shown.append(chat_message(entry))
        elif removed and entry.data.get("removed"):  # its words erased: nothing to restore
            shown.append(removed_message(entry.version))
        elif removed:
            restorable = {"restorable": True, "from": entry.data["from"]}
            shown.append(removed_message(entry.version) | restorable)
    return shown


def encode(value: object) -> str:
    """JSON text of ``value`` (orjson: frames are encoded once per viewer and event)."""
    return orjson.dumps(value).decode()


def _update_head(version: int, events: Sequence[JSON]) -> str:
    return f'{{"type": "update", "version": {version}, "events": {encode(events)}'


def update_frame(version: int, events: Sequence[JSON], view: str | None) -> str:
    """An ``update`` frame; ``view`` (encoded) is left out of the frames a resume replays."""
    head = _update_head(version, events)
    return head + "}" if view is None else f'{head}, "view": {view}}}'


def entry_frame(
    entry: Entry, viewer: Viewer, view: str | None, restored: Mapping[int, Entry] | None = None
) -> str:
    """The frame of ``entry`` for ``viewer``: a ``chat``, ``unchat`` or ``rechat`` frame
    (``said_frame``), or an ``update``."""
    if entry.kind in SAID_KINDS:
        return encode(said_frame(entry, restored))
    return update_frame(entry.version, entry_events(entry, viewer), view)


@dataclass(frozen=True)
class EncodedViews:
    """Every viewer's view, encoded in two parts: ``shared`` (the keys every viewer sees
    alike: ``'{"table": ...'`` without its closing brace) and each viewer's ``own`` keys
    (``'"seat": ...}'``)."""

    shared: str
    own: Mapping[Viewer, str]

    def text(self, viewer: Viewer) -> str:
        """The whole view of ``viewer``, as ``encode(view)`` writes it."""
        return f"{self.shared},{self.own[viewer]}"


@dataclass(frozen=True)
class EventFrames:
    """The frames of one entry, one per viewer, in parts: a viewer's frame is its ``head``,
    the ``middle`` that every viewer's frame holds (the shared part of the view), and its
    ``tail``. Between processes the middle travels once, not once per viewer."""

    middle: str
    parts: Mapping[Viewer, tuple[str, str]]

    def get(self, viewer: Viewer) -> str | None:
        """The frame of ``viewer``, if there is one for it."""
        part = self.parts.get(viewer)
        return None if part is None else f"{part[0]}{self.middle}{part[1]}"


def event_frames(
    entry: Entry, views: EncodedViews, restored: Mapping[int, Entry] | None = None
) -> EventFrames:
    """The frame of ``entry`` for every viewer of ``views``: the same text as
    ``entry_frame(entry, viewer, views.text(viewer), restored)``."""
    if entry.kind in SAID_KINDS:
        frame = encode(said_frame(entry, restored))
        return EventFrames("", {viewer: (frame, "") for viewer in views.own})
    parts = {
        viewer: (
            f'{_update_head(entry.version, entry_events(entry, viewer))}, "view": ',
            f",{own}}}",
        )
        for viewer, own in views.own.items()
    }
    return EventFrames(views.shared, parts)

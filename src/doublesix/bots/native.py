"""The bots' C core (``bots/c/``, the extension ``_native``), where the package was built with it.

Where it was not (``DOUBLESIX_PURE``, a machine with no C compiler), ``core`` is None and the
Python it mirrors runs instead: ``ismcts.Search.iterate`` for ``Tree``,
``fitted.FittedModel.mirrored`` for ``Seen``. Both give the same moves; the core only gives
them sooner.
"""

from __future__ import annotations

from doublesix.bots.tables import DOUBLES, HIGH, LOW, OTHER, SUIT, VALUE

__all__ = ["core"]

try:
    from doublesix.bots import _native as core
except ImportError:
    core = None  # type: ignore[assignment]
else:
    core.tables(SUIT, OTHER, VALUE, DOUBLES, LOW, HIGH)

"""The search core of the bots, compiled to C by mypyc when the package is built.

The bots count their budgets in work, not seconds, so a compiled core makes
the same moves as the pure-Python one, only sooner (``tests/test_compiled.py``
checks both). ``DOUBLESIX_PURE=1`` builds without it, for a machine with no C
compiler. Everything else is declared in ``pyproject.toml``.
"""

import os

from setuptools import setup

CORE = [
    "src/doublesix/bots/tables.py",
    "src/doublesix/bots/core.py",
    "src/doublesix/bots/search.py",
    "src/doublesix/bots/sampler.py",
    "src/doublesix/bots/tree.py",
    "src/doublesix/bots/ismcts.py",
    "src/doublesix/bots/fitted.py",
]
"""The modules where a search spends its time (``benchmarks/profile_bot.py``)."""

if os.environ.get("DOUBLESIX_PURE"):
    setup()
else:
    from mypyc.build import mypycify

    setup(ext_modules=mypycify(CORE, opt_level="3", group_name="doublesix_core"))

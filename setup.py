"""The search core of the bots, compiled to C by mypyc when the package is built.

The bots count their budgets in work, not seconds, so a compiled core makes
the same moves as the pure-Python one, only sooner (``tests/test_compiled.py``
checks both); so does the C core in ``bots/c/``, which mirrors the Python where
the time goes (``tests/test_native.py``). ``DOUBLESIX_PURE=1`` builds without
either, for a machine with no C compiler. Everything else is declared in ``pyproject.toml``.
"""

import os

from setuptools import Extension, setup

CORE = [
    "src/doublesix/bots/tables.py",
    "src/doublesix/bots/core.py",
    "src/doublesix/bots/search.py",
    "src/doublesix/bots/sampler.py",
    "src/doublesix/bots/tree.py",
    "src/doublesix/bots/ismcts.py",
    "src/doublesix/bots/fitted.py",
    "src/doublesix/bots/choice_net.py",
]
"""The modules where a search spends its time (``benchmarks/profile_bot.py``)."""

NATIVE = Extension(
    "doublesix.bots._native",
    [f"src/doublesix/bots/c/{name}.c" for name in ("module", "tree", "seen")],
    depends=["src/doublesix/bots/c/native.h"],
    extra_compile_args=["-ffp-contract=off"],
)
"""The C core: ``ismcts``'s iterations and the fitted model's weighing, where the time goes
once the rest is compiled; ``-ffp-contract=off`` keeps its floating point that of the Python
it mirrors (no fused multiply-adds)."""

if os.environ.get("DOUBLESIX_PURE"):
    setup()
else:
    from mypyc.build import mypycify

    setup(ext_modules=[*mypycify(CORE, opt_level="3", group_name="doublesix_core"), NATIVE])

"""Budgets counted in work, not seconds: the same seed always gives the same move.

A searching bot counts what it does by kind (``Work``) and stops once the
work, each kind charged its cost in units, reaches its budget: the time
budget times the units one core does in a millisecond. The costs come from
``benchmarks/calibrate_bots.py``, which fits the CPU time of real decisions
to these counts, so that a budget of 300 ms takes about that long.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Work:
    """What one decision did, counted by kind (or, as a bot's ``COST``, units per kind)."""

    attempts: int = 0
    """Deals the sampler tried, accepted or not."""
    weighed: int = 0
    """Seen plays weighed by an opponent model, summed over the samples."""
    nodes: int = 0
    """Positions an exact solver visited."""
    solved: int = 0
    """Moves solved exactly on a sample (one solver call each)."""
    plays: int = 0
    """Plays simulated in playouts."""
    played: int = 0
    """Moves played out on a sample (one playout each)."""
    tree: int = 0
    """Decisions a tree search descended through."""

    def units(self, cost: Work) -> int:
        """This work in units, each kind charged as ``cost`` says (on every sample: kept plain)."""
        return (
            self.attempts * cost.attempts
            + self.weighed * cost.weighed
            + self.nodes * cost.nodes
            + self.solved * cost.solved
            + self.plays * cost.plays
            + self.played * cost.played
            + self.tree * cost.tree
        )

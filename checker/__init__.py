"""Rulings knowledge base and interaction checker.

The core (this package minus :mod:`checker.games`) loads, validates, runs,
compares, explains and reports scenarios. It knows no game: each game is a
package under :mod:`checker.games` that provides a :class:`checker.engine.game.Game`.
"""

__all__ = ["__version__"]
__version__ = "0.1.0"

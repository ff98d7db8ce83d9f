"""The engine a game plugs into: what a game is (:mod:`~checker.engine.game`), the context its rules run in,
its declared procedure, vocabulary, response stack and rulings catalogue, the trace, copying states, and what may
be done next (:mod:`~checker.engine.legal`). It knows no game, no scenario file and no command."""

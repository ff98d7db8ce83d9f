"""Running scenarios: one scenario played by its game's rules and compared with what it expects
(:mod:`~checker.run.runner`), many of them loaded and checked together, on every core, and which rulings
passing runs cite."""

"""The rulings website: an MkDocs plugin that generates every page from the data.

:mod:`model` runs the scenarios and gathers what the pages show; :mod:`graphs` builds
the interaction and procedure graphs with networkx; :mod:`pages` writes the pages;
:mod:`plugin` hands them to MkDocs. Nothing here knows a particular game.
"""

"""The rulings website: an MkDocs plugin that generates every page from the data.

:mod:`played` runs the scenarios; :mod:`summary` and :mod:`model` gather what the pages
show; :mod:`graphs` builds the interaction and procedure graphs with networkx; :mod:`pages`
writes the pages, a module for each kind; :mod:`plugin` hands them to MkDocs. Nothing here
knows a particular game.
"""

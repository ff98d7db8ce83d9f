"""The site's pages, written as Markdown files whose bodies are escaped HTML.

Every text taken from a scenario or a catalogue goes through :func:`kit.esc`; links are
relative, computed from page source paths, so the site works from any folder.

:mod:`kit` holds the HTML the pages share; :mod:`written` a page as written and as packed, and
what MkDocs reads of it (its search entries, from :mod:`search`); :mod:`lists` the lists that
grow with the corpus; :mod:`figures` the graphs a page draws. Each kind of page has its module:
:mod:`home`, :mod:`coverage` and :mod:`disputes` for the site, :mod:`game`, :mod:`vocabulary`,
:mod:`ruling`, :mod:`scenario`, :mod:`entity` and :mod:`pair` for each game. :mod:`schedule`
says which pages are written, on which process, and which a rebuild writes again.
"""

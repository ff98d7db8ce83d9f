"""Generated pages rendered into the theme on every core: a share in forked processes while MkDocs renders the rest.

MkDocs renders and writes its pages one after another, in one process, once every page has
been read (``on_env`` comes between the two). From there, :func:`start` forks a process per
further core; each renders its share of the generated pages with MkDocs's own page builder
(the same template, context and plugin events) and writes them. In MkDocs's process each of
those pages is then built with a template that renders nothing, so MkDocs writes nothing for
it, and its content is emptied (what the theme would have shown is written already).
:meth:`Elsewhere.wait` waits for the processes and reports what went wrong in them.

Pages are shared out only where processes can be forked and there are enough of them to
pay for the fork (:data:`PARALLEL_FROM`): a rebuild of ``mkdocs serve --dirty`` renders its few
pages where it stands.

The theme's navigation sidebar is the same on every page outside the navigation in one folder (its
links are relative to the page's folder, and no item of it is the page or holds it): it is rendered
once per folder (:func:`once_per_folder`), as are the header's search box and colour switch, the
theme's settings, its style sheets and the scripts.
"""

from __future__ import annotations

import logging
import os
import posixpath
import sys
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

import jinja2
from jinja2.runtime import Context
from mkdocs.commands import build
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

#: The template (in checker/site/theme/) of a page another process renders: it renders nothing.
RENDERED_ELSEWHERE = "rendered-elsewhere.html"
#: Parts of the theme rendered once per folder of pages outside the navigation: the navigation sidebar, and the
#: search box and colour switch of the header, which no page changes.
PER_FOLDER = ("partials/nav.html", "partials/search.html", "partials/palette.html")
#: Blocks of the theme's page template (``base.html``) rendered once per folder of pages outside the navigation:
#: its settings for its scripts, its style sheets and its scripts, whose links are all a page changes of them.
#: (Ours, ``main.html``, adds to its scripts by calling the theme's block.)
BLOCKS_PER_FOLDER = ("config", "styles", "scripts")
#: Below this many pages to render, one process renders them all.
PARALLEL_FROM = 256
_FAILED, _WARNED = 1, 2  # a rendering process's exit status: an error, or warnings (which strict mode counts)
LOG = logging.getLogger("mkdocs.plugins.rulings")


@dataclass
class Elsewhere:
    """The processes rendering pages, and the pages each renders."""

    shares: dict[int, list[str]] = field(default_factory=dict)  # by process id: the source paths of its pages

    @property
    def pages(self) -> set[str]:
        return {source for share in self.shares.values() for source in share}

    def wait(self) -> None:
        """Wait for every process; an error in one fails the build, a warning is reported here so that strict mode counts it."""
        failed: list[str] = []
        for pid, share in self.shares.items():
            _, status = os.waitpid(pid, 0)
            code = os.waitstatus_to_exitcode(status)
            if code == _WARNED:
                LOG.warning(f"rendering {len(share)} pages in another process gave the warnings above")
            elif code != 0:
                failed.append(f"rendering {len(share)} pages in another process failed (exit status {code}; its errors are above)")
        self.shares = {}
        if failed:
            raise PluginError("; ".join(failed))

    def stop(self) -> None:
        """End every process at once (the build failed)."""
        for pid in self.shares:
            try:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        self.shares = {}


def once_per_folder(env: jinja2.Environment, nav: Navigation) -> None:
    """Have ``env`` render each part of the theme in :data:`PER_FOLDER` and each block in :data:`BLOCKS_PER_FOLDER`
    once per folder of the pages outside ``nav``.

    What such a part shows of the page is its links, each relative to the page's URL, and the navigation's
    items that are the page or hold it (marked active, unfolded). A page outside the navigation is none of its
    items; from a page whose URL is a folder no item lies under, every link reads the same as from any other
    such page of the same parent folder. Other pages (those of the navigation, ``404.html``) get each part
    rendered for them."""
    in_nav = [page.url for page in nav.pages]
    for name in PER_FOLDER:
        template = env.get_template(name)
        template.root_render_func = _once_per_folder(template.root_render_func, in_nav)
    theme = env.get_template("base.html")
    for block in BLOCKS_PER_FOLDER:
        theme.blocks[block] = _once_per_folder(theme.blocks[block], in_nav)


def _once_per_folder(render: Callable[[Context], Iterator[str]], in_nav: list[str]) -> Callable[[Context], Iterator[str]]:
    kept: dict[str, str] = {}

    def once(context: Context) -> Iterator[str]:
        page = context.get("page")
        where = page.url if isinstance(page, Page) else ""
        if not where.endswith("/") or any(there.startswith(where) for there in in_nav):
            yield from render(context)
            return
        folder = posixpath.dirname(where.rstrip("/"))
        if folder not in kept:
            kept[folder] = "".join(render(context))
        yield kept[folder]

    return once


def start(pages: Sequence[Page], config: MkDocsConfig, files: Files, nav: Navigation, env: jinja2.Environment,
          jobs: int) -> Elsewhere:
    """Fork ``jobs - 1`` processes, each rendering and writing every ``jobs``-th page of ``pages``; this process is
    left the rest. The pages forked out are set to render nothing here (:data:`RENDERED_ELSEWHERE`)."""
    elsewhere = Elsewhere()
    if jobs <= 1 or len(pages) < PARALLEL_FROM or not hasattr(os, "fork"):
        return elsewhere
    doc_files = files.documentation_pages()
    for offset in range(1, jobs):
        share = list(pages[offset::jobs])
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            os._exit(_render(share, config, doc_files, nav, env))
        elsewhere.shares[pid] = [page.file.src_uri for page in share]
    for offset in range(1, jobs):
        for page in pages[offset::jobs]:
            page.meta["template"] = RENDERED_ELSEWHERE
            page.content = ""
    return elsewhere


def _render(pages: Sequence[Page], config: MkDocsConfig, doc_files: Sequence[object], nav: Navigation,
            env: jinja2.Environment) -> int:
    """In a forked process: build each page as MkDocs does; the exit status says whether anything went wrong."""
    warnings = _Count()
    logging.getLogger("mkdocs").addHandler(warnings)
    try:
        for page in pages:
            build._build_page(page, config, doc_files, nav, env)  # type: ignore[arg-type]
        return _WARNED if warnings.count else 0
    except BaseException:  # MkDocs has logged which page and why
        return _FAILED
    finally:
        logging.getLogger("mkdocs").removeHandler(warnings)
        sys.stdout.flush()
        sys.stderr.flush()


class _Count(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


class QuietSkips(logging.Filter):
    """MkDocs notes every page that renders nothing: a page rendered elsewhere is not one to mention."""

    def __init__(self, elsewhere: Elsewhere) -> None:
        super().__init__()
        self.sources = elsewhere.pages

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO or not isinstance(record.msg, str) or not record.msg.startswith("Page skipped: '"):
            return True
        return record.msg.split("'")[1] not in self.sources

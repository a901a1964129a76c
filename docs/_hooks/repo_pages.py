"""mkdocs hook: the site is built from the Markdown as it reads on GitHub.

- A few Markdown files outside ``docs/`` are pages of the site too (`REPO_PAGES`): the README is the
  home page, the clients' READMEs the client-library pages.
- Every relative link of every page is written as on GitHub, relative to the file's place in the
  repository (``docs/learning.md`` from the README, ``../clients/README.md`` from ``docs/``); here it is
  resolved in the repository and pointed at the page that file became. A link to a file outside the
  site is left alone, so ``mkdocs build --strict`` reports it.
- Headings get the anchors GitHub gives them (``pymdownx.slugs``, Unicode kept), so one ``#anchor``
  works in both places.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]

# repository path -> site path
REPO_PAGES = {
    "README.md": "index.md",
    "clients/README.md": "client-libraries/index.md",
    "clients/typescript/README.md": "client-libraries/typescript.md",
    "clients/go/README.md": "client-libraries/go.md",
    "clients/scenario/README.md": "client-libraries/scenario.md",
}
SITE_TO_REPO = {site: repo for repo, site in REPO_PAGES.items()}

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.S | re.M)
LINK = re.compile(r"(\]\()([^)\s#]*)(#[^)\s]*)?((?:\s+\"[^\"]*\")?\))")


def on_config(config):
    from pymdownx.slugs import slugify

    config.mdx_configs.setdefault("toc", {})["slugify"] = slugify(case="lower")
    return config


def on_files(files: Files, config) -> Files:
    for repo_path, site_path in REPO_PAGES.items():
        files.append(File.generated(config, site_path, abs_src_path=str(ROOT / repo_path)))
    return files


def repo_path_of(site_path: str) -> str:
    return SITE_TO_REPO.get(site_path, f"docs/{site_path}")


def site_path_of(repo_path: str) -> str | None:
    if repo_path in REPO_PAGES:
        return REPO_PAGES[repo_path]
    if repo_path.startswith("docs/") and (ROOT / repo_path).is_file():
        return repo_path[len("docs/") :]
    return None


def _rewrite(text: str, page_repo: str, page_site: str) -> str:
    def link(m: re.Match[str]) -> str:
        target = m.group(2)
        if not target or "://" in target or target.startswith(("/", "mailto:")):
            return m.group(0)
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page_repo), target))
        site = site_path_of(resolved)
        if site is None:
            return m.group(0)  # outside the site: mkdocs reports it
        relative = posixpath.relpath(site, posixpath.dirname(page_site) or ".")
        return f"{m.group(1)}{relative}{m.group(3) or ''}{m.group(4)}"

    return LINK.sub(link, text)


def on_page_markdown(markdown: str, page, config, files) -> str:
    site = page.file.src_uri
    repo = repo_path_of(site)
    out, last = [], 0
    for fence in FENCE.finditer(markdown):  # links in code blocks are code
        out.append(_rewrite(markdown[last : fence.start()], repo, site))
        out.append(fence.group(0))
        last = fence.end()
    out.append(_rewrite(markdown[last:], repo, site))
    return "".join(out)

"""The README and the pages under docs/ stay true: their commands are commands the kit has, their links lead
somewhere, their TOML is a profile (or an --expect file) the kit accepts, and the messages the troubleshooting page
quotes are messages the kit prints. A page that drifted from the kit fails here, not in a new user's hands.

What each command *does* is tested where the command is (the new user's walk in test_new_user.py runs the README's
quick start and `init` -> `doctor` -> `run` -> `diff` from an installed wheel; tests/test_ci_examples.py runs the CI
examples' commands); here every command line is parsed by the kit's own parser, options and choices included.
"""

from __future__ import annotations

import ast
import re
import shlex
import tomllib
from pathlib import Path

import pytest

from qaconform.commands import cli

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _ids(pages: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in pages]


def blocks(page: Path, lang: str) -> list[str]:
    """The fenced code blocks of ``page`` in ``lang``."""
    return re.findall(rf"^```{lang}\n(.*?)^```", page.read_text(encoding="utf-8"), re.M | re.S)


def shell_commands(block: str) -> list[list[str]]:
    """The commands of a bash block: continuation lines joined, comments dropped, `&&` chains split."""
    text = block.replace("\\\n", " ")
    out: list[list[str]] = []
    for line in text.splitlines():
        try:
            words = shlex.split(line, comments=True)
        except ValueError as exc:
            raise AssertionError(f"not a shell line: {line!r} ({exc})") from exc
        current: list[str] = []
        for w in [*words, "&&"]:
            if w in ("&&", "||", ";", "|"):
                if current:
                    out.append(current)
                current = []
            else:
                current.append(w)
    return out


def test_the_pages_exist_and_the_readme_stays_short() -> None:
    names = {p.name for p in PAGES}
    for page in ("profile.md", "ci.md", "report.md", "load.md", "troubleshooting.md"):
        assert page in names, f"docs/{page} is missing"
    size = (ROOT / "README.md").stat().st_size
    assert size < 8000, f"README.md is {size} bytes: keep it to what the kit is, the quick start and a map"


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_no_page_sends_users_outside_the_kit(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "../shared" not in text, f"{page.name} points at ../shared, which users of the kit do not have"


def _anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_every_relative_link_leads_to_a_file_and_heading(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert links or page.name != "README.md", "the README links to the pages"
    for link in links:
        if re.match(r"^[a-z]+:", link):
            continue
        target, _, anchor = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        assert path.is_file(), f"{page.name}: the link {link} leads nowhere"
        if anchor:
            headings = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M)
            assert anchor in {_anchor(h) for h in headings}, f"{page.name}: no heading #{anchor} in {target}"


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_every_qaconform_command_has_those_options(page: Path) -> None:
    _parser, unavailable, subparsers = cli.build_parser()
    assert not unavailable, unavailable
    seen = 0
    for block in blocks(page, "bash"):
        for argv in shell_commands(block):
            if argv[0] != "qaconform":
                continue
            seen += 1
            assert len(argv) > 1 and argv[1] in subparsers, f"{page.name}: no command {argv[1:2]} in {argv}"
            own = argv[2:argv.index("--")] if "--" in argv else argv[2:]
            try:
                _args, extras = subparsers[argv[1]].parse_known_args(own)
            except SystemExit:
                raise AssertionError(f"{page.name}: `{shlex.join(argv)}` is refused by the kit's parser") from None
            assert extras == [], f"{page.name}: `{shlex.join(argv)}`: options the kit does not have: {extras}"
    if page.name in ("README.md", "ci.md", "report.md", "load.md"):
        assert seen, f"{page.name} shows no qaconform command"


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_every_toml_block_is_a_profile_or_an_expect_file_the_kit_accepts(page: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from qaconform.report.expect import load_expectations
    from qaconform.target.profile import Cleanup, FixturesFile, load_profile

    for i, block in enumerate(blocks(page, "toml")):
        data = tomllib.loads(block)
        path = tmp_path / f"block{i}.toml"
        path.write_text(block, encoding="utf-8")
        if "base_url" in data:
            for account in data.get("accounts", {}).values():
                if "password_env" in account:
                    monkeypatch.setenv(account["password_env"], "secret")
            load_profile(str(path))
        elif set(data) == {"fixtures"}:  # a fragment: the [fixtures] table alone
            FixturesFile.model_validate(data["fixtures"])
        elif set(data) == {"cleanup"}:  # a fragment: the [cleanup] table alone
            Cleanup.model_validate(data["cleanup"])
        else:
            assert load_expectations(str(path)), f"{page.name}: block {i} is neither a profile nor an --expect file"


def _source_strings() -> list[str]:
    """Every string the kit's modules hold, f-strings with their holes as NUL: what a message can be made of."""
    out: list[str] = []
    for module in (ROOT / "qaconform").rglob("*.py"):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                out.append(node.value)
            elif isinstance(node, ast.JoinedStr):
                out.append("".join(v.value if isinstance(v, ast.Constant) else "\0" for v in node.values))
    return out


PLACEHOLDERS = re.compile(r"\b(?:FILE|VAR|URL|ROLE|KEY|DIR|PATH|N)\b")


def test_the_troubleshooting_page_quotes_messages_the_kit_prints() -> None:
    page = ROOT / "docs" / "troubleshooting.md"
    quotes = re.findall(r'^### "(.+)"$', page.read_text(encoding="utf-8"), re.M)
    assert len(quotes) >= 10, quotes
    strings = _source_strings()
    for quote in quotes:
        for part in (p.strip() for p in PLACEHOLDERS.split(quote)):
            if len(part) >= 4:
                assert any(part in s for s in strings), f"troubleshooting.md quotes {part!r}, which the kit never says"

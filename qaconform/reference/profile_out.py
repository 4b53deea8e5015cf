"""The target profile the reference server writes about itself (format: design/target-profile.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from . import faults
from .seed import ACCOUNTS, GDPR_USER, SeedFixtures

SERVICE_VERSION = "2.16.0"


def _s(value: str) -> str:
    """A TOML basic string (JSON escaping is valid TOML for these ASCII values)."""
    return json.dumps(value)


def profile_text(base_url: str, fixtures: SeedFixtures, page_size: int) -> str:
    lines = [
        "# Written by the qaconform reference server; valid while it runs.",
        'name = "reference"',
        f"base_url = {_s(base_url)}",
        "timeout_s = 10",
        f"service_version = {_s(SERVICE_VERSION)}",
        "verify_tls = true",
        f"default_page_size = {page_size}",
    ]
    for acc in ACCOUNTS:
        lines += [
            "",
            f"[accounts.{acc.role}]",
            f"username = {_s(acc.username)}",
            f"password = {_s(acc.password)}",
            f"id = {acc.id}",
        ]
    lines += [
        "",
        "[fixtures]",
        f"question_id = {fixtures.question_id}",
        f"space_id = {fixtures.space_id}",
        f"member_wiki_node_id = {fixtures.member_wiki_node_id}",
        f"wiki_node_id = {fixtures.wiki_node_id}",
        f"favorite_node_id = {fixtures.favorite_node_id}",
        f"hidden_space_id = {fixtures.hidden_space_id}",
        f"gdpr_csv_file_id = {fixtures.gdpr_csv_file_id}",
        f"issue_tracker = {_s(fixtures.issue_tracker)}",
        "",
        "[visibility]",
        'full = "full"',
        'recipients = "recipients"',
        'to_original_poster = "op"',
        'to_moderators = "mod"',
        'to_own_groups = "group"',
        "",
        "[safety]",
        "destructive = true",
        f"gdpr_user = {_s(GDPR_USER.username)}",
        "",
    ]
    if faults.closed_site():  # the site grants anonymous no Anonymous Roles: the profile says so
        lines += ["[lacks]", *(f'{permission} = "anonymous"' for permission in (
            "view_questions_list", "view_answers", "view_question_page", "view_users_list", "view_user_profile",
            "use_site")), ""]
    return "\n".join(lines)


def write_profile(path: str | os.PathLike[str], base_url: str, fixtures: SeedFixtures, page_size: int) -> None:
    """Written to a temporary name and renamed, so a reader never sees half a profile."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(profile_text(base_url, fixtures, page_size), encoding="utf-8")
    os.replace(tmp, target)

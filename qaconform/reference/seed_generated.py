"""The generated part of the reference seed (seed.py ``seed``): questions, answers and comments drawn with the
seed's random generator up to the requested number of nodes, after the fixed part the profile points at and before
the nodes seeded for earlier runs and relations. Apart from seed.py so that the fixed part has room; the draws are
the same, in the same order (one generator, passed in the builder).
"""

from __future__ import annotations

from typing import Any

_Builder = Any
"""seed._Builder (seed.py imports this module, so it is not imported back: tests/reference/test_reference_layout.py)."""

_WORDS = (
    "install",
    "upgrade",
    "export",
    "login",
    "report",
    "search",
    "billing",
    "mobile",
    "theme",
    "backup",
    "permissions",
    "api",
    "webhook",
    "email",
    "space",
    "topic",
    "badge",
    "reputation",
    "import",
    "sso",
)


def generated(b: _Builder, size: int, user_ids: list[int], topic_ids: list[int]) -> None:
    """Questions with answers, comments and follows into ``b`` until its next id passes ``size``."""
    rng = b.rng
    accounts = [1, 2, 3, 4]
    visibilities = ("recipients", "op", "mod", "group")

    def author() -> int:
        return rng.choice(accounts) if rng.random() < 0.2 else rng.choice(user_ids)

    while b.next_id <= size:
        qid = b.new_id()
        space = 3 if rng.random() < 0.05 else rng.choice((1, 1, 2, 4))
        q_author = author()
        title = f"How to {rng.choice(_WORDS)} with {rng.choice(_WORDS)} #{qid}"
        qdate = b.tick()
        children: list[tuple[Any, ...]] = []
        budget = size - b.next_id + 1
        for _ in range(min(rng.choice((0, 1, 1, 2, 3)), budget)):
            a_author = author()
            in_mod = 1 if a_author == 4 or rng.random() < 0.02 else 0
            ans = b.child(
                "answer",
                qid,
                qid,
                None,
                space,
                a_author,
                f"<p>Answer to {qid}.</p>",
                date=b.tick(),
                depth=1,
                in_moderation=in_mod,
                score=rng.randint(-1, 6),
            )
            children.append(ans)
            for _ in range(min(rng.choice((0, 0, 1, 2)), size - b.next_id + 1)):
                children.append(_generated_comment(b, ans[0], qid, ans[0], space, author(), 2, visibilities))
        if b.next_id <= size and rng.random() < 0.3:
            children.append(_generated_comment(b, qid, qid, None, space, author(), 1, visibilities))
        topics = tuple(sorted(set(rng.sample(topic_ids, k=min(len(topic_ids), rng.choice((1, 1, 2)))))))
        followers = 0
        if rng.random() < 0.1:
            for uid in rng.sample(user_ids, k=min(len(user_ids), rng.randint(1, 3))):
                b.follows.append((qid, uid, int(rng.random() < 0.9), qdate + 60_000))
                followers += 1
        b.question(
            qid,
            space,
            q_author,
            title,
            children=children,
            topics=topics,
            date=qdate,
            views=rng.randint(0, 500),
            score=rng.randint(-2, 20),
            followers=followers,
        )


def _generated_comment(
    b: _Builder,
    parent: int,
    qid: int,
    answer: int | None,
    space: int,
    author: int,
    depth: int,
    visibilities: tuple[str, ...],
) -> tuple[Any, ...]:
    rng = b.rng
    visibility = rng.choice(visibilities) if rng.random() < 0.1 else "full"
    row = b.child(
        "comment",
        parent,
        qid,
        answer,
        space,
        author,
        f"<p>Comment on {parent}.</p>",
        date=b.tick(),
        depth=depth,
        visibility=visibility,
    )
    if visibility == "recipients":
        b.recipients.append((row[0], rng.randint(1, 10)))
    return row

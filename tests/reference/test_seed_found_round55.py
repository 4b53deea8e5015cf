"""The reference seed's commenters of a wiki answer (round55, issue 44): the found-relations walk places the commenter
cells of an unwikify on a wiki answer first, so the seed needs a wiki answer of another's that member and novice
commented on (seed_found.wiki_answers), and the reference server refuses both their unwikifies of it."""

from __future__ import annotations

from ref_helpers import Ref


def test_member_and_novice_commented_on_a_wiki_answer_of_moderators_they_may_not_unwikify(ref: Ref) -> None:
    moderator = ref.user_id("moderator")
    answers = ref.ok("GET", f"/user/{moderator}/answer.json", "novice", params={"pageSize": 100})["list"]
    wiki = [a for a in answers if a["wiki"] is True]
    assert wiki, "no wiki answer of moderator's"
    commented = []
    for answer in wiki:
        authors = {c["author"]["id"] for c in ref.comments(answer["id"], "novice").values()
                   if c.get("visibility", "full") == "full"}
        if {ref.user_id("member"), ref.user_id("novice")} <= authors:
            commented.append(answer["id"])
    assert commented, f"no wiki answer of moderator's that member and novice both commented on: {wiki}"
    for who in ("member", "novice"):
        assert ref.put(f"/node/{commented[0]}/cancelwiki.json", who).status_code == 403
    after = ref.ok("GET", f"/user/{moderator}/answer.json", "novice", params={"pageSize": 100})["list"]
    assert [a["wiki"] for a in after if a["id"] == commented[0]] == [True], "a refused unwikify changed the node"

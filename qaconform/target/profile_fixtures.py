"""The profile's [fixtures] table (moved out of qaconform/target/profile.py, wiki21): the nodes the interface cannot
create, as the tests see them (:class:`Fixtures`) and as written (:class:`FixturesFile`: a one-shot fixture may be a
pool). :class:`_Table` and :data:`PositiveId` are the profile's own types, shared with the other tables."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr


class _Table(BaseModel):
    """A TOML table of the profile: exact types (``true`` is not a number, ``"10"`` not an int), no unknown keys."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


PositiveId = Annotated[StrictInt, Field(gt=0)]


class Fixtures(_Table):
    """Things the interface cannot create; the kit writes only under these. As the tests see them: one node per
    one-shot fixture (the node this run takes from its pool, see :class:`FixturesFile`)."""

    question_id: PositiveId = Field(description="a published question every account can view, answer, comment on")
    space_id: PositiveId = Field(description="its space")
    member_wiki_node_id: PositiveId | None = None
    wiki_node_id: PositiveId | None = None
    wiki_answer_id: PositiveId | None = None
    accepted_wiki_question_id: PositiveId | None = None
    favorite_node_id: PositiveId | None = None
    favorite_also_held_by: list[Literal["admin", "moderator"]] = Field(
        default_factory=list, description="accounts besides member that marked every favorite_node_id node as "
                                          "favorite: their favorite must survive member's unfavorite (favorites are "
                                          "per user)")
    hidden_space_id: PositiveId | None = None
    gdpr_csv_file_id: PositiveId | None = None
    accepted_answer_user_id: PositiveId | None = Field(
        None, description="a user (any: the tests only read) one of whose answers is accepted (marked true): the "
                          "question of an accepted answer is marked too; needed when none of the profile's accounts "
                          "wrote an accepted answer")
    locked_question_id: PositiveId | None = Field(
        None, description="a published question every account can view, LOCKED on the site (the interface creates "
                          "no question and undoes no lock; no read shows a lock, so the kit takes the profile's "
                          "word): moderator answers it once per run (one accepted write, the run's shared answer of "
                          "moderator's), so that an answer to a locked question is judged published")
    issue_tracker: Annotated[StrictStr, Field(pattern=r"^[A-Za-z0-9_-]+$")] | None = Field(
        None, examples=["tracker"], description="set when the issue-tracker integration is set up: the third path "
                                                "segment of the issue-type operation (letters, digits, -, _)")


ONE_SHOTS: tuple[str, ...] = ("member_wiki_node_id", "wiki_node_id", "favorite_node_id", "wiki_answer_id",
                              "accepted_wiki_question_id")
"""The fixtures a run consumes (a favorite is removed once, a wiki node unwikified once): each may be a pool. The
last two (wiki21) are acted on only on the seeds that draw their kind (qaconform.pytest.seed_draws
``WIKI_NODE_KINDS``), in place of wiki_node_id."""

Pool = Annotated[list[PositiveId], Field(min_length=1)]


class FixturesFile(Fixtures):
    """[fixtures] as written: a one-shot fixture is a node id, or a pool of them (a list): each run takes the first
    node still in its state, so a CI job keeps checking those rules for as many runs as the pool holds."""

    model_config = ConfigDict(title="Fixtures")
    member_wiki_node_id: PositiveId | Pool | None = Field(  # type: ignore[assignment]
        None, description="a community-wiki node authored by member, or a pool (list) of them; consumed by a run")
    wiki_node_id: PositiveId | Pool | None = Field(  # type: ignore[assignment]
        None, description="a community-wiki node authored by someone other than member, or a pool (list) of them; "
                          "consumed by a run")
    favorite_node_id: PositiveId | Pool | None = Field(  # type: ignore[assignment]
        None, description="a node member has marked favorite, or a pool (list) of them; consumed by a run")
    wiki_answer_id: PositiveId | Pool | None = Field(  # type: ignore[assignment]
        None, description="a community-wiki ANSWER authored by someone other than member (best under a question "
                          "none of the accounts wrote), or a pool (list) of them: on the seeds that draw 'an "
                          "answer' the drawn unwikifier unwikifies it instead of wiki_node_id; consumed by such a "
                          "run. Without it those runs unwikify wiki_node_id (the answer path is not taken)")
    accepted_wiki_question_id: PositiveId | Pool | None = Field(  # type: ignore[assignment]
        None, description="a community-wiki question holding an accepted answer, written by none of the accounts, "
                          "or a pool (list) of them: on the seeds that draw 'an accepted question' the drawn "
                          "unwikifier unwikifies it instead of wiki_node_id; consumed by such a run. Without it those "
                          "runs unwikify wiki_node_id")

    def resolved(self) -> tuple[Fixtures, dict[str, tuple[int, ...]]]:
        """One node per one-shot fixture (a pool's first) for the tests, and the pools as written."""
        pools = {n: tuple(v) for n in ONE_SHOTS if isinstance(v := getattr(self, n), list)}
        values = self.model_dump()
        values.update({n: pool[0] for n, pool in pools.items()})
        return Fixtures.model_validate(values), pools

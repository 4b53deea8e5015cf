"""paths17 (issue 44 items 3 and 5): faults on the kinds last session's blind rounds 45-47 left out, one more of each
kind closed (where they bite: :mod:`paths17_paths`, one ``request_hooks.Hook``). Each breaks one stated rule on one
path only, was missed on the branch before paths17's change of its kind (``qaconform run --reference-fault NAME
--only RULE --seed N``) and is caught after (``qaconform selftest --fault NAME --no-clean --jobs 1``; ARCHITECTURE.md,
paths17):

- a media-type parameter on a write's Content-Type (round47-answer-json-charset-body-raw's kind): no write of the run
  sent one; the accounts of a seeded half (``qaconform.pytest.seed_draws.CHARSET_SENDERS``) now send every JSON and
  form-encoded body the client types itself under ``...; charset=UTF-8``, so a job (admin's) and a form-encoded
  comment are sent so on the seeds that draw their writer;
- an accepted action with its stated options (round47-unfavorite-wrapped-record-before-cancel's kind beyond the
  one-shot actions): the options were carried by the one-shot unfavorite and unwikify only; every accepted lock and
  send to moderation of the run now alternates between all the options its operation states and none, by the seed
  (``qaconform.pytest.one_shots.drawn_options``), so each run reads records built with and without them.

paths17-reply-sticky-privacy (a reply right after its author's private comment) was left out (caught when its rule's
tests ran alone, missed in a whole run); paths18 posts member's shared to_moderators comment and its reply that admin
locks as a pair (suites/plain_after_private.py ``reply_follows``), and it is registered. ``PATHS17_MISSED`` is empty.
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_F = Fault

_ALL: tuple[Fault, ...] = (
    _F("paths17-job-json-charset-refused", "GDPR-201-JOBID",
       "'Success: 201 with {jobId}.' ('A body sent with a request must have the format that matches ... the "
       "request's Content-Type header'): a job whose JSON body comes under a Content-Type with a parameter "
       "(application/json; charset=UTF-8) is refused 415, the media type compared whole; a bare application/json "
       "job is scheduled",
       draws=("charset senders=admin, novice and anonymous",)),
    _F("paths17-comment-form-charset-refused", "CONV-PARAM-AS-BODY-FIELD",
       "'On POST endpoints that take a body, each body field may also be given as a request or query parameter of "
       "the same name.': a comment whose form-encoded body comes under a Content-Type with a parameter "
       "(application/x-www-form-urlencoded; charset=UTF-8) is refused 415, the media type compared whole; a bare "
       "form-encoded comment, and every JSON one, is taken"),
    _F("paths17-lock-wrapped-extra-dropped", "ACTION-LOCK-EXTRA",
       "'The prompt is stored as extra of the returned lock action.': a lock called with the wrap option answers "
       "the lock action without extra (the wrapped record is built from the node's row, which keeps no prompt); "
       "a bare lock's record carries it"),
    _F("paths17-sendtomod-v1-not-private", "ACTION-SENDTOMOD-PRIVATE",
       "'Returns an action record with verb sent and private true.': a send to moderation called with the v1 "
       "option answers its record with private false (the v1 serializer's default); a call without v1 is right"),
    _F("paths17-reply-sticky-privacy", "COMMENT-1",
       "'Without visibility and recipients the comment has full visibility and no recipients, and a later GET "
       "returns exactly that.': a reply posted without privacy fields right after the same account posted a private "
       "comment keeps that comment's visibility (the form state kept for replies only); a comment on an answer or a "
       "question after a private one, and a reply after a public one, are full"),
)

_MISSED_REASONS: dict[str, str] = {
}
"""Missed after paths17's change, with why it stays out (paths18 registered the one left: none now)."""

PATHS17, PATHS17_MISSED = split_missed(_ALL, _MISSED_REASONS)

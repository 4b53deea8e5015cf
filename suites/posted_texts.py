"""The content of the text each shared answer carries (issue 44, Build item 3: "the content of posted text is a
dimension"). A server may derive a field from what a body holds (a link preview as plug, a spam filter holding a
link for review, markup escaped, @mentions taken out or read as the user answered, a text column that cuts a long
body); a run whose answers all read alike never meets one. So the run's answers, posted anyway (no write more),
carry between them a link, inline HTML markup, an @mention and a long text, each on a publisher's answer (whose 201
holds the new Node every rule of a posted answer judges) and again on one of novice's, beside the non-ASCII text
every answer holds (suites/conftest.py ``ANSWER_TEXT``). Every rule of a posted answer is judged on each
(test_answer_form_matrix.py: body kept, author, plug null, parent fields, published).

Pure: no request. The texts are what the description calls a body, "the answer text" and "HTML content": inline
markup and a link are content it may hold, and none of them is refused by a stated rule.
"""

from __future__ import annotations

LINK, MARKUP, MENTION, LONG = "link", "markup", "mention", "long"
CONTENTS = (LINK, MARKUP, MENTION, LONG)

BY_ANSWER: dict[tuple[str, str], str] = {
    ("member", "json"): LINK,
    ("admin", "query"): MENTION,
    ("moderator", "form"): MARKUP,
    ("member", "param_wins"): LONG,
    ("novice", "json"): MARKUP,
    ("novice", "query"): LINK,
    ("novice", "form"): LONG,
    ("novice", "param_wins"): MENTION,
}
"""(writer, input form) of a shared answer -> the content its text carries; an answer not listed (``--thorough``
posts every writer in every form) carries the link. Each content is on one publisher's answer of a budgeted run
(input_forms.budget_answers) and on one of novice's."""

LONG_TEXT = " ".join(f"sentence {n} of a long answer, kept whole whatever a store's column would cut." for n in
                     range(110))
"""Over 8,200 characters of plain text (fix2nodes, issue 44: the posted text's length past the round numbers a
server may cut at, not past one of them): longer than 255, 500, 1000, 1024, 2000, 2048, 4000, 4096, 8000 and 8192,
the widths a text column or a field limit commonly takes (no limit is stated, nor a maximum body size: "maximum body
size ...: not shown"), and far below the request sizes a server commonly accepts. A store that cuts at any of them
fails ANSWER-BODY-KEPT on both long answers; 925 characters (before) passed a cut at 1000."""


FORM_DECODED = "C++ and 1+1=2; 50% of a%20b & c=d"
"""fix23 (issue 44, blind round 23's r23-comment-plus-read-as-space): in every shared answer and plain comment, the
characters an input form's decoder changes ("+" a space, "%xx" an escape, "&", "=" and ";" separators of a form body
or a query string), so that a text decoded once more, or split, in any input form (JSON, query parameters, a
form-encoded body) reads back other than posted. None is refused by a stated rule; the kit encodes each form."""


def content_of(writer: str, form: str) -> str:
    return BY_ANSWER.get((writer, form), LINK)


def with_content(text: str, writer: str, form: str, mentioned: str) -> str:
    """``text`` with the content the answer of ``writer`` in ``form`` carries; ``mentioned``: the username an
    @mention names (an account that neither wrote the answer nor the question: the mention must not be read as the
    user answered)."""
    content, text = content_of(writer, form), f"{text} {FORM_DECODED}"
    if content == LINK:
        return f"{text} (see https://example.com/qa/notes?topic=install&page=2 for the details)"
    if content == MARKUP:
        return f"{text} with <b>bold</b> and <em>stressed</em> words"
    if content == MENTION:
        return f"{text}, as @{mentioned} said"
    return f"{text} {LONG_TEXT}"


# fix3 (issue 44, blind round 21's round21-comment-text-cut-at-quote): the comments' texts are a dimension too
QUOTED = 'with "double quotes", \'single quotes\' and a back\\slash'
"""In every shared plain comment: the characters a store or a serializer must escape in a quoted string (a body is
"the comment text"; none of them is refused by a stated rule). A list that served a comment's text up to its first
double quote went unseen while no comment the run posts held one."""

COMMENT_BY_WRITER: dict[str, str] = {
    "admin": "where a < b & c > d, with <b>bold</b> markup",
    "moderator": "over two lines,\nsee https://example.com/qa/notes?topic=install&page=2",
    "member": "in other scripts: réponse naïve, 日本語, ✓",
    "novice": "as @mention-like text and <em>stressed</em> words over\ntwo lines (https://example.com/qa/faq)",
}
"""writer -> what else its shared plain comment's text carries (HTML-significant characters, markup, a newline, a
link, non-ASCII), beside :data:`QUOTED`; the comment form matrix judges each, in the form the seed gives the writer,
wherever it is listed (COMMENT-LISTED, CONV-PARAM-AS-BODY-FIELD, CONV-PARAM-WINS-COMMENT), compared as the text an
HTML body shows (support.body_text), so an equivalent HTML form of it passes. blind94 (issue 44): novice's holds a
link too, as its answers do (:data:`BY_ANSWER`): a server's new-user link limit (a spam filter refusing, or holding,
the link of an account without Publish answer) met only the moderator's link comment, which no such limit reaches."""


BEYOND_ASCII = "déjà vu, 日本語, emoji 😀 𝔘𝔫𝔦"
"""histories4 (issue 44): in every shared plain comment, text beyond ASCII of three widths (2-, 3- and 4-byte UTF-8),
so that the comment form matrix judges TEXT-NON-ASCII on every writer's comment in the form the seed gives it (the
carrier comment of test_stated_forms.py is member's alone, in four forms, never the parameter beside a JSON body).
No HTML-special character: the body is HTML content, which a server may escape."""


def comment_text(writer: str) -> str:
    """The text of ``writer``'s shared plain comment (suites/conftest.py ``comment_of``)."""
    return (f"plain comment by {writer} {QUOTED} {FORM_DECODED}, {COMMENT_BY_WRITER.get(writer, '')}, "
            f"{BEYOND_ASCII}")

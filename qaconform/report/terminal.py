"""The summary printed at the end of a run: counts by status, what failed, where the report is."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from qaconform.report import holdbacks
from qaconform.report.coverage import terminal_lines
from qaconform.report.model import STATUSES, limits_text, settle_text
from qaconform.report.observation_words import terminal_lines as observation_lines
from qaconform.report.records import ReportRecord
from qaconform.report.rule_groups import blocked_line
from qaconform.target.writes import OBSERVATIONS, REFUSALS, limits, writes_text

_LIST = 12
_GROUPS = 8
_LARGER_BUDGET = 1000
"""The --write-budget the hint for left-out observations names: where their share stops growing (its cap)."""


def in_folder(name: str, html_path: Path | None) -> str:
    """A file of the run folder as the user can open it: its path beside report.html, or its bare name without one."""
    return str(html_path.parent / name) if html_path is not None else name


def fixture_lines(report: Mapping[str, Any], html_path: Path | None = None) -> list[str]:
    """What the run consumed and created on the target, and the one-shot fixtures left for the next runs; the
    report.json that lists what was created is named by its path in the run folder (beside ``html_path``)."""
    fx = report.get("fixtures") or {}
    out = []
    consumed = [f"{c['fixture']} {c['node']}" for c in fx.get("consumed") or []]
    if consumed and report.get("reference") is True:
        # qa16: the embedded server's record sat in its private folder, gone at its stop, and the next run starts a
        # fresh server: "recorded in /tmp/...; the next run reads their state" sent a user looking for that file
        out.append(f"consumed one-shot fixtures: {', '.join(consumed)} (on the embedded reference server, gone "
                   "with it: the next run starts a fresh one with every fixture in its state)")
    elif consumed:
        out.append(f"consumed one-shot fixtures: {', '.join(consumed)} (recorded in {fx.get('record')}; the next run "
                   "reads their state from the target and takes the pool's next node, if it has one)")
    earlier = [f"{c['fixture']} {c['node']}" for c in fx.get("consumed_earlier") or []]
    if earlier:
        out.append(f"consumed before this run: {', '.join(earlier)} (its call met it not in its state: the run moved "
                   "on to the pool's next node, or its tests skipped where none was left; renew it, or add nodes to "
                   "its pool, and say so in the record beside the profile)")
    left = [f"{name} {p['left_after']}" for name, p in (fx.get("one_shots") or {}).items() if len(p["pool"]) > 1]
    if left:
        out.append(f"left in the pools after this run: {', '.join(left)}")
    for name, why in (fx.get("not_in_state") or {}).items():
        out.append(f"not in its state: {name}: its tests skipped; " + (why.get("renew") or "renew it in the profile"))
    created = report.get("created") or []
    if created:
        kinds: dict[str, int] = {}
        for c in created:
            kinds[str(c.get("kind"))] = kinds.get(str(c.get("kind")), 0) + 1
        out.append("created on the target: " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
                   + f" ({in_folder('report.json', html_path)}: created)")
    out += changed_lines(report)
    jobs = scheduled_jobs(report)
    if jobs:
        out.append(f"data-protection jobs this run scheduled ({len(jobs)}; no interface undoes them: an admin of the "
                   "site can cancel them by id):")
        out += [f"  job {j['id']}: {j['what']}" for j in jobs]
    return out


def changed_lines(report: Mapping[str, Any]) -> list[str]:
    """clean26: what the run changed on nodes it did not create (report.json ``changed``), which no cleanup undoes:
    each node (named by its fixture where it is one) with its accepted state changes."""
    changed = [c for c in report.get("changed") or [] if isinstance(c, Mapping)]
    if not changed:
        return []
    used = {p.get("used"): name for name, p in ((report.get("fixtures") or {}).get("one_shots") or {}).items()}
    nodes = [f"node {c.get('node')}" + (f" ({used[c.get('node')]})" if c.get("node") in used else "") + ": "
             + ", ".join(f"{x.get('operation')} by {x.get('by')}" for x in c.get("changes") or []) for c in changed]
    return [f"changed on the target and not undone by any cleanup (nodes the run did not create): {'; '.join(nodes)}"]


def scheduled_jobs(report: Mapping[str, Any]) -> list[dict[str, str]]:
    """Every data-protection job the run scheduled, for a person: its id, and for whom, when, which operations and
    to whom content goes, as the run sent them (``created[].job``; qaconform.target.recording.job_facts)."""
    out = []
    for c in report.get("created") or []:
        if c.get("kind") != "gdpr-job":
            continue
        job = c.get("job") or {}
        whom = job.get("user") or (f"the users of CSV file {job['csvFileId']}" if "csvFileId" in job else "?")
        when = job.get("scheduleDate", job.get("scheduleTime", "?"))
        parts = [f"{job.get('type', '?')} job for {_facts(whom)}", f"on {_facts(when)}",
                 f"operations {_facts(job.get('operations', '?'))}"]
        if job.get("reassignUser"):
            parts.append(f"content reassigned to {_facts(job['reassignUser'])}")
        out.append({"id": str(c.get("id")), "by": str(c.get("by")), "test": str(c.get("test") or ""),
                    "what": ", ".join(parts) + f" (scheduled by {c.get('by')})"})
    return out


def _facts(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {v}" + (_as_date(v) if k == "timeStamp" else "") for k, v in value.items())
    if isinstance(value, list):
        return "/".join(str(v) for v in value)
    return str(value)


def _as_date(stamp: Any) -> str:
    """A job's ``timeStamp`` as a date a person can act on: "on timeStamp 2602695720000" said nothing to the person
    who may have to cancel the job. Its unit is not stated (OBS-GDPR-TIMESTAMP-FORMAT), so the reading says which
    unit it took: milliseconds for a number past 10^11 (read as seconds, that would be the year 5138)."""
    from datetime import UTC, datetime

    try:
        number = float(stamp)
        ms = abs(number) >= 1e11
        when = datetime.fromtimestamp(number / 1000 if ms else number, UTC)
    except (TypeError, ValueError, OverflowError, OSError):
        return ""
    return f" ({when:%Y-%m-%d %H:%M} UTC, read as {'milliseconds' if ms else 'seconds'})"


def not_checked_lines(report: ReportRecord | Mapping[str, Any]) -> list[str]:
    """Relations not checked because a list was too long: counted apart, never among the rules that held."""
    record = ReportRecord.of(report)
    s = record.summary
    if not s.not_checked_tests:
        return []
    first = next((reason for r in record.rules.values() for reason in r.not_checked), "")
    return [f"not checked (list too long): {s.not_checked_tests} test(s) of {', '.join(s.not_checked_rules[:_LIST])}"
            + (f"; e.g. {first.splitlines()[0][:160]}" if first else "")]


def write_lines(writes: Mapping[str, Any] | None, levels: Mapping[str, str] | None = None) -> list[str]:
    """The run's writes against its budget, per operation (sent / accepted), and the rules the budget left unchecked,
    by the share that was spent: an observed-level rule's tests spend the observations' share (0 of the default 100,
    so a run with 86 accepted writes still leaves them out: "write budget spent" alone read as the whole budget), every
    other rule's the suites' or a generated share (``levels``: rule id -> level; without it, one line as before)."""
    w = dict(writes or {})
    text = writes_text(w)
    if not text:
        return []
    ops = ", ".join(f"{op} {c.get('sent', 0)}/{c.get('accepted', 0)}"
                    for op, c in (w.get("by_operation") or {}).items())
    out = [text, f"  per operation (sent/accepted): {ops}"] if ops else [text]
    out += _other_methods_line(w.get("other_methods_to_reads"))
    unchecked = list(w.get("unchecked_rules") or [])
    observed = [rid for rid in unchecked if levels is not None and levels.get(rid) == "observed"]
    others = [rid for rid in unchecked if rid not in observed]
    if others:
        # a share is named when a write of it was held back, or it filled up; a share of 0 whose tests never tried to
        # write (not selected, say) is not
        pools = [pool for pool, c in (w.get("by_pool") or {}).items() if pool not in (OBSERVATIONS, REFUSALS)
                 and (c.get("held") or (c.get("limit") and c.get("accepted", 0) >= c["limit"]))]
        which = (f" ({', '.join(pools)} share{'s' if len(pools) > 1 else ''} of the write budget spent)" if pools
                 else " (write budget spent)")
        out.append(f"rules left unchecked{which}: {_shown(others)} (raise --write-budget, or --thorough)")
    if observed:
        out.append(f"rules left unchecked (the observations' share of the write budget spent; "
                   f"{_observation_share(w)}): {_shown(observed)} ({_observation_hint(w)})")
    return out


def _other_methods_line(other: Mapping[str, Any] | None) -> list[str]:
    """The requests a generated test sent to a read operation with a method it does not take (--thorough's negative
    cases): counted as writes by their method, but no read operation writes; one line apart, naming only the
    operations that accepted one."""
    if not other:
        return []
    sent = sum(int(c.get("sent", 0)) for c in other.values())
    accepted = {op: int(c.get("accepted", 0)) for op, c in other.items() if c.get("accepted")}
    named = (f"; accepted by {', '.join(f'{op} {n}' for op, n in accepted.items())}" if accepted
             else "; none accepted")
    return [f"  not writes: {sent} request(s) to {len(other)} read operation(s) with a method other than GET "
            f"(generated negative cases){named}"]


def _shown(rule_ids: list[str]) -> str:
    more = f" ... and {len(rule_ids) - _LIST} more" if len(rule_ids) > _LIST else ""
    return ", ".join(rule_ids[:_LIST]) + more


def _observation_share(w: Mapping[str, Any]) -> str:
    """"it holds 0 of a budget of 100 accepted writes", from the run's own figures (the budget's, else the default's).
    Not "of the run's 100 accepted writes": beside "writes: 86 accepted of a budget of 100" that read as 100 made."""
    limit = ((w.get("by_pool") or {}).get(OBSERVATIONS) or {}).get("limit")
    if limit is None:
        limit = limits(w.get("budget"))[OBSERVATIONS] if w.get("budget") is not None else None
    return (f"it holds {limit} of a budget of {w.get('budget')} accepted writes" if limit is not None
            else "the writes planned for them are made")


def _observation_hint(w: Mapping[str, Any]) -> str:
    """How to record them: the share grows with --write-budget up to its cap; --thorough has no budget at all."""
    budget = w.get("budget")
    larger = limits(_LARGER_BUDGET)[OBSERVATIONS] or 0
    if isinstance(budget, int) and budget < _LARGER_BUDGET and larger > (limits(budget)[OBSERVATIONS] or 0):
        return (f"the share grows with --write-budget: --write-budget {_LARGER_BUDGET} gives it {larger} writes; "
                "--thorough records every observation")
    return "--thorough records every observation"


def _what_broke(message: str, rid: str) -> str:
    """The first line of a failure message without what the summary's heading and the rule id in front of it
    already say: a should-level warning's message starts ``should-level warning (RID; fails the run only with
    --strict): [RID] ``, which left 110 characters of the line only "GET on the Loc" of what went wrong."""
    lines = message.strip().splitlines()
    first = lines[0] if lines else ""
    if first.startswith("should-level warning (") and "): " in first:
        first = first.split("): ", 1)[1]
    if first.startswith("[") and "]" in first and rid in first[1:first.index("]")].split(", "):
        # user26: a test naming several rules heads its message "[COMMENT-2, COMMENT-PRIVACY-LIST] <its row id>:"
        # and says each rule's break on a line of its own ("  COMMENT-2: admin is shown comment 85 ..."): the
        # summary's line showed 110 characters of the row id and nothing of what broke
        own = next((line.strip()[len(rid) + 2:] for line in lines[1:] if line.strip().startswith(f"{rid}: ")), "")
        if own:
            return own
    return first.removeprefix(f"[{rid}]").strip()


_SENT = re.compile(r"^(?:sent: )?(?:GET|POST|PUT|DELETE|PATCH|HEAD) \S+")
"""The line of a failure message that says what was sent (and, in a response's description, what came back):
``PUT http://h/services/v2/node/9/lock.json -> 200 (text/html)``, or a TargetError's ``sent: PUT http://h/...``."""


def story_lines(message: str | None, curl: str | None) -> list[str]:
    """Under a failed rule's line, the rest of its story (qa16): the request its first failure sent and what came
    back, and the curl that sends it again, whole (a curl cut to the line's width cannot be pasted). The rule's line
    above says what broke; the report has the exchange, the other failures and the rerun command."""
    text = message or ""
    sent = next((line.strip() for line in text.splitlines()[1:] if _SENT.match(line.strip())), "")
    replay = curl or next((line.split("Reproduce with: ", 1)[1] for line in text.splitlines()
                           if line.startswith("Reproduce with: ")), "")
    sent = sent if not sent or sent.startswith("sent: ") else f"sent: {sent}"
    out = [f"      {sent if len(sent) <= 160 else sent[:156] + ' ...'}"] if sent else []  # a URL has no space to cut at
    return out + ([f"      replay: {replay}"] if replay else [])


def blocked_lines(record: ReportRecord) -> list[str]:
    """The rules whose tests a failed step blocked, one line per step (the rule it broke and its call, then the rules
    it kept from running): one broken lock answer blocked 20 rules, which read as 20 failures before (qa15)."""
    if not record.summary.blocked:
        return []
    lines = ["blocked (a step these tests needed broke another rule: fix that one first):"]
    for group in record.summary.blocked:
        ids = [str(r) for r in group.get("rules") or []]
        left = f"; rules left unchecked: {_shown(ids)}" if ids else "; each of their rules held on another test"
        lines.append(f"  {blocked_line(group)}: {group.get('tests')} test(s) blocked{left}")
    return lines


def skipped_lines(record: ReportRecord) -> list[str]:
    """The skipped rules by reason (the report lists them all): each reason, then the rules it left unjudged and,
    apart, how many tests skipped for it and how many other rules those tests name that other tests judged (tidy24:
    "1 rule(s), 48 test(s)" read as 48 tests of the one rule lost, when they named eight rules held elsewhere)."""
    groups = record.summary.skipped_groups
    if not groups:
        return []
    lines = ["skipped, by reason:"]
    for group in groups[:_GROUPS]:
        ids = [str(r) for r in group.get("rules") or []]
        reason = str(group.get("reason") or "").splitlines()[0] if group.get("reason") else "skipped"
        elsewhere = int(group.get("judged_elsewhere") or 0)
        also = f", which also name {elsewhere} rule(s) other tests judged" if elsewhere else ""
        lines.append(f"  {_cut(reason, 140)}")
        skipped = int(group.get("tests") or 0)  # 0: no test ran (rules --only left out)
        lines.append(f"    left unjudged: {len(ids)} rule(s) ({_shown(ids[:4])}" + (" ..." if len(ids) > 4 else "")
                     + ")" + (f"; {skipped} test(s) skipped for it{also}" if skipped else ""))
    if len(groups) > _GROUPS:
        lines.append(f"  ... and {len(groups) - _GROUPS} more reason(s) (see the report)")
    return lines


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 4].rsplit(" ", 1)[0] + " ..."


def format_summary(report: Mapping[str, Any], html_path: Path | None = None) -> str:
    """The run's summary on the terminal; ``report``: report.json's content (its rules and summary read into
    :class:`qaconform.report.records.ReportRecord`, the sections each line prints passed to their own module)."""
    record = ReportRecord.of(report)
    s = record.summary
    counts = s.rules
    widths = [max(len(st), 5) for st in STATUSES]
    head = "rules  " + "  ".join(st.rjust(w) for st, w in zip(STATUSES, widths, strict=True))
    row = "       " + "  ".join(str(counts.get(st, 0)).rjust(w) for st, w in zip(STATUSES, widths, strict=True))
    lines = ["", head, row]
    tests = ", ".join(f"{n} {o}" for o, n in s.tests.items() if n) or "none ran"
    lines.append(f"tests: {tests}")
    for label, ids in (("failed", s.failed_rules), ("error (the kit broke)", s.error_rules),
                       ("warning (a should-rule; fails the run only with --strict)", s.warning_rules),
                       ("expected failure", s.expected_failures),
                       ("unexpectedly passing (remove from --expect)", s.unexpectedly_passing)):
        if not ids:
            continue
        lines.append(f"{label}:")
        for rid in ids[:_LIST]:
            rule = record.rules.get(rid)
            msg = next((f.message for f in rule.failures if f.message), "") if rule is not None else ""
            first = _what_broke(msg, rid)[:110]
            lines.append(f"  {rid}  {first}")
            if label == "failed" and rule is not None and rule.failures:
                lines += story_lines(rule.failures[0].message, rule.failures[0].curl)
        if len(ids) > _LIST:
            lines.append(f"  ... and {len(ids) - _LIST} more (see the report)")
    lines += blocked_lines(record)
    lines += skipped_lines(record)
    lines += not_checked_lines(record)
    lines += observation_lines(report.get("observations") or {})
    lines += fixture_lines(report, html_path)
    load = report.get("load")
    if load:
        lines.append(f"load: {load.get('status')}" + (f" ({load['message']})" if load.get("message") else ""))
    if report.get("execution"):
        lines.append(f"ran on {limits_text(report['execution'])}")
    if settle_text(report.get("settle")):
        lines.append(settle_text(report.get("settle")))
    if holdbacks.text(report.get("held_back")):
        lines.append(holdbacks.text(report.get("held_back")))
    lines += write_lines(report.get("writes"), {rid: rule.level for rid, rule in record.rules.items()})
    coverage = in_folder("coverage.json", html_path)  # where the user can open it, as the HAR folder below
    lines += [line.replace("(coverage.json", f"({coverage}") for line in terminal_lines(report.get("coverage"))] \
        if (report.get("coverage") or {}).get("operations") else []
    har = report.get("har") or {}
    if har:
        cassettes = len([k for k in har if k != "*"])
        folder = f"{html_path.parent / 'har'}/" if html_path is not None else "har/"  # where the user can open it
        lines.append(f"HAR cassettes: {cassettes} failed or warned test(s)" + (", and every exchange (all.har)"
                                                                            if "*" in har else "") + f" in {folder}")
    lines.append(f"exit code {report.get('exit_code')}: {report.get('verdict')}")
    if html_path is not None:
        lines.append(f"report: {html_path}")
    return "\n".join(lines)

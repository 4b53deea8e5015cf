"""The values of spec/dimensions.yaml ``id_edge`` that are drawn, not fixed, shared by the suites that send ids at
their edges (suites/contract/test_id_edges.py for path ids and recipients, suites/scenarios/test_gdpr_forms.py for
the content list's userId and a job's id fields)."""

from __future__ import annotations

import random


def past_32_bits(rng: random.Random, alias: int | None = None) -> int:
    """fix31 (issue 44, round 31): an id from 2^31 up to 18 digits, its length drawn each time (10 to 18 digits), that
    no seed holds. Every 64-bit id type holds it and no 32-bit one does: ``unknown`` stays below 2^31 and
    ``too_large`` past 2^63, so a 32-bit path converter or field parser answered every other edge as a 64-bit one
    would, and only this id shows it. ``alias``: an id the target holds, which the drawn id's low 32 bits repeat
    (:func:`aliasing`)."""
    digits = rng.randint(10, 18)
    if alias is None or not 0 < alias < 2**31:
        return rng.randint(max(2**31, 10 ** (digits - 1)), 10**digits - 1)
    return aliasing(rng, alias, digits)


def aliasing(rng: random.Random, alias: int, digits: int) -> int:
    """round56 (issue 44): an id of ``digits`` digits (10 to 18) whose low 32 bits are ``alias``, an id the target
    holds. A server that cuts an id to 32 bits (an int column read through a 32-bit integer) answers it as ``alias``'s
    where a random id past 32 bits names nobody either way: only an id that aliases an existing one shows the cut.
    Every 64-bit id type holds it whole, so it names nobody all the same."""
    low = max(1, -(-(10 ** (digits - 1) - alias) // 2**32))
    high = max(low, (10**digits - 1 - alias) // 2**32)
    return rng.randint(low, high) * 2**32 + alias

"""Bounded response bodies for the load users: never hold more than ``max_response_bytes`` of one answer.

Why: a target under test may answer a 100 MB page or a gzip bomb (100 KB that inflates to 100 MB); a load
generator that buffers whole bodies then measures its own swapping, or dies. The reading loop lives in the
Locust user (loadtests/qaload/base.py); the decoding, which is the part that can explode, is here and tested.
"""

from __future__ import annotations

import zlib

from qaconform.load.locust_checks import CheckFailure


def too_big(what: str) -> CheckFailure:
    return CheckFailure("body_size", f"{what} larger than max_response_bytes (raise it in the profile if expected)")


def decode_capped(raw: bytes, encoding: str | None, cap: int) -> bytes:
    """The body after Content-Encoding, failing (not inflating) beyond ``cap`` bytes."""
    enc = (encoding or "identity").strip().lower()
    if enc == "identity":
        if len(raw) > cap:
            raise too_big("body")
        return raw
    if enc in ("gzip", "x-gzip"):
        candidates: tuple[int, ...] = (16 + zlib.MAX_WBITS,)
    elif enc == "deflate":
        candidates = (32 + zlib.MAX_WBITS, -zlib.MAX_WBITS)  # zlib-wrapped (or gzip), else raw deflate
    else:
        raise CheckFailure("body_encoding", f"Content-Encoding {enc!r} is not one the load users read")
    for wbits in candidates:
        d = zlib.decompressobj(wbits)
        try:
            out = d.decompress(raw, cap + 1)
        except zlib.error:
            continue
        if len(out) > cap or d.unconsumed_tail:
            raise too_big("decompressed body")
        return out
    raise CheckFailure("body_encoding", f"body does not decompress as {enc}")

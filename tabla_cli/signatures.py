"""``tabla check --verify``: the Ed25519 signatures an OGXM file carries, checked.

An OGXM v2 match may carry ``match_signatures`` (each vouching for the match
itself) and each analysis block a ``signature`` (for its evaluations bound to
the moves); a v1 file only the latter. The ``ogxm`` package computes the
bytes each covers and runs the Ed25519 check (:func:`ogxm.verify_match`,
:func:`ogxm.verify_analysis`); this module turns the outcome into findings:

* ``bad-signature`` (error): a signature that does not verify over the
  match as it is (altered since it was signed, or a signature made over
  something else), or one by a key not among ``trusted`` when keys are given;
* ``unsigned-match`` (note): a match that carries no signature at all.

Each names the key (base64, as the file writes it) that signed, or says
none is named. Without trusted keys a signature that verifies proves only
that the match is as its signer wrote it, not who the signer is: nothing
in tabla reads a verified signature as more than that, and no other command
looks at signatures.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable
from typing import Any, BinaryIO

from tabla_cli.errors import InputError, Location
from tabla_cli.files import MAX_SIZE
from tabla_cli.findings import Code, Finding

__all__ = ["parse_key", "signature_findings", "verify_stream"]


def parse_key(text: str) -> bytes:
    """A raw Ed25519 public key from its base64 (44 characters) or hex (64) text.

    Raises:
        ValueError: it is neither, or not 32 bytes.

    >>> len(parse_key("A" * 43 + "=")), len(parse_key("00" * 32))
    (32, 32)
    """
    written = text.strip()
    try:
        raw = bytes.fromhex(written) if len(written) == 64 else base64.b64decode(written, validate=True)
    except (ValueError, binascii.Error):
        raise ValueError(f"not a base64 or hex Ed25519 public key: {written[:60]!r}") from None
    if len(raw) != 32:
        raise ValueError(f"an Ed25519 public key has 32 bytes, not {len(raw)}: {written[:60]!r}")
    return raw


def _key_of(signature: Any) -> str:
    key = signature.get("public_key") if isinstance(signature, dict) else None
    return f"key {key}" if isinstance(key, str) and key else "no key named"


def _member_findings(data: bytes, number: int, path: str, trusted: frozenset[bytes] | None) -> list[Finding]:
    import ogxm
    from ogxm.signature import analysis_blocks

    where = Location(path)
    label = f"match {number}"
    doc = ogxm.binary_to_json(data)
    names = f"{doc.get('player_white', '')} - {doc.get('player_black', '')}"
    keys = None if trusted is None else set(trusted)
    findings: list[Finding] = []
    signed = 0
    sigs = doc.get("match_signatures")
    for index, sig in enumerate(sigs if isinstance(sigs, list) else []):
        signed += 1
        if not ogxm.verify_match(data, index, keys):
            findings.append(_bad(where, label, names, "match signature", index, sig, data, trusted))
    for index, block in enumerate(analysis_blocks(doc)):
        sig = block.get("signature") if isinstance(block, dict) else None
        if not sig:
            continue
        signed += 1
        if not ogxm.verify_analysis(data, index, keys):
            findings.append(_bad(where, label, names, "analysis signature", index, sig, data, trusted))
    if not signed:
        findings.append(Finding(Code.UNSIGNED_MATCH, f"{label} ({names}) carries no signature", where))
    return findings


def _bad(
    where: Location,
    label: str,
    names: str,
    what: str,
    index: int,
    sig: Any,
    data: bytes,
    trusted: frozenset[bytes] | None,
) -> Finding:
    import ogxm

    reason = "does not verify: the match is not what was signed"
    if trusted is not None:
        sound = ogxm.verify_match(data, index) if what == "match signature" else ogxm.verify_analysis(data, index)
        if sound:
            reason = "verifies, but by a key that is not trusted (--trusted-key)"
    return Finding(Code.BAD_SIGNATURE, f"{label} ({names}): {what} {index + 1} ({_key_of(sig)}) {reason}", where)


def verify_stream(
    handle: BinaryIO, path: str, *, trusted: Iterable[bytes] | None = None, max_size: int = MAX_SIZE
) -> list[Finding]:
    """The signature findings of every match of an OGXM file or stream read from ``handle``.

    A member the codec cannot read is left to the reader's findings (``tabla check`` reports it).
    """
    import ogxm

    from tabla_cli.formats.ogxm import documents

    keys = None if trusted is None else frozenset(trusted)
    findings: list[Finding] = []
    try:
        for data, number in documents(handle, path=path, max_size=max_size, on_skip=lambda error: None):
            try:
                findings += _member_findings(data, number, path, keys)
            except (ogxm.OgxmError, RuntimeError, ValueError):
                continue
    except InputError:
        pass
    return findings


def signature_findings(
    path: str, data: bytes | None = None, *, trusted: Iterable[bytes] | None = None, max_size: int = MAX_SIZE
) -> list[Finding]:
    """:func:`verify_stream` of the file at ``path`` (or of ``data``); no findings for a file that is not OGXM."""
    import io

    from tabla_cli.formats.ogxm import MAGIC, ZSTD_MAGIC

    try:
        handle: BinaryIO = io.BytesIO(data) if data is not None else open(path, "rb")  # noqa: SIM115
    except OSError:
        return []
    with handle:
        head = handle.read(4)
        if head not in (MAGIC, ZSTD_MAGIC):
            return []
        handle.seek(0)
        return verify_stream(handle, path, trusted=trusted, max_size=max_size)

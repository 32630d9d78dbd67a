"""One file, whatever it is: which document it holds (resolver JSON, bundle, include or
compiled PDF), read within the caps, and handed to the verifier of its kind.  This is the
top of the verification modules: it imports ``verify``, ``signatures`` and ``pdf``, and
none of them imports it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Optional, Tuple

from . import canonical
from .checks import FileOutcome
from .documents import (PDF_MAGIC, is_pdf_name, kind_of, parse_bundle_doc, parse_record_doc,
                        read_capped)
from .errors import PithError
from .verify import loads, verify_bundle, verify_record

if TYPE_CHECKING:
    from .keys import Keyring

def expected_number(path: str) -> Optional[str]:
    """``.../NUM.json`` or ``.../NUM/bundle.json``: the number the path promises."""
    base = os.path.basename(path)
    stem = base[:-5] if base.endswith(".json") else base
    if canonical.is_number(stem):
        return stem
    if base == "bundle.json":
        parent = os.path.basename(os.path.dirname(path))
        if canonical.is_number(parent):
            return parent
    return None


def read_file(path: str) -> Tuple[bytes, Optional[FileOutcome]]:
    """``(bytes, None)``, or ``(b"", outcome)`` for a file that cannot be read or is larger
    than 1 MiB."""
    try:
        data = read_capped(path)
    except OSError as e:
        return b"", FileOutcome(path, "unknown", None, "cannot read: %s" % (e.strerror or e))
    if data is None:
        return b"", FileOutcome(path, "unknown", None, "larger than 1 MiB")
    return data, None


def decode_json(path: str, data: bytes) -> Tuple[Any, Optional[FileOutcome]]:
    """``(JSON value, None)``, or ``(None, outcome)`` when *data* is not UTF-8 JSON."""
    try:
        return loads(data.decode("utf-8")), None
    except (ValueError, UnicodeDecodeError) as e:
        return None, FileOutcome(path, "unknown", None,
                                 "not valid JSON (%s)" % e.__class__.__name__)


def verify_json_obj(
    path: str, obj: Any, *, require_signature: bool = False,
    keyring: Optional[Keyring] = None,
) -> FileOutcome:
    """Verify one saved resolver JSON or bundle, already parsed (*obj*, from *path*)."""
    kind = kind_of(obj)
    try:
        if kind == "record":
            doc = parse_record_doc(obj, path)
            out = verify_record(expected_number(path), doc, None, check_signature=False)
        elif kind == "bundle":
            bdoc = parse_bundle_doc(obj, path)
            out = verify_bundle(expected_number(path), bdoc,
                                require_signature=require_signature, keyring=keyring)
        else:
            return FileOutcome(path, "unknown", None,
                               "neither resolver JSON (record_type: pith_number_record) nor a "
                               "bundle (bundle_type: pith_open_graph_bundle)")
    except PithError as e:
        return FileOutcome(path, kind or "unknown", None, e.message, e.exit_code)
    return FileOutcome(path, kind, out)


def _include_outcome(path: str, data: bytes, require_signature: bool,
                     keyring: Optional[Keyring]) -> FileOutcome:
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        return FileOutcome(path, "include", None, "not pure ASCII: not a pith-tex include")
    from .signatures import verify_include_text

    return verify_include_text(path, text, require_signature=require_signature,
                               keyring=keyring)


def verify_include_file(path: str, *, require_signature: bool = False,
                        keyring: Optional[Keyring] = None) -> FileOutcome:
    """Verify the file at *path* as an include, whatever its name (``include=FILE``)."""
    data, failed = read_file(path)
    if failed is not None:
        return failed
    return _include_outcome(path, data, require_signature, keyring)


def verify_file(path: str, *, require_signature: bool = False,
                keyring: Optional[Keyring] = None) -> FileOutcome:
    """Verify one file: ``.tex`` as an include, ``.pdf`` (or any file that starts as a
    PDF does) as a compiled paper (:mod:`pith_tex.pdf`), anything else as resolver
    JSON/bundle."""
    if is_pdf_name(path):
        from .pdf import verify_pdf

        return verify_pdf(path, require_signature=require_signature, keyring=keyring)
    data, failed = read_file(path)
    if failed is not None:
        return failed
    if data.startswith(PDF_MAGIC):  # a PDF by another name
        from .pdf import verify_pdf

        return verify_pdf(path, require_signature=require_signature, keyring=keyring)
    if path.endswith(".tex"):
        return _include_outcome(path, data, require_signature, keyring)
    obj, failed = decode_json(path, data)
    if failed is not None:
        return failed
    return verify_json_obj(path, obj, require_signature=require_signature, keyring=keyring)

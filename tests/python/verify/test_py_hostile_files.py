"""Files that are not what they seem: FIFOs, device nodes, sockets, symlinks, huge
(sparse) files, read-only and foreign ``-o`` targets, names with newlines, signals.

Every case runs the real ``pith-tex`` in a child bounded in time and memory
(``tests/support/bounded.py``): a hang is a ``TimeoutExpired`` failure, a bomb a memory
error, never a stuck suite.  Each asserts the exit code, the message, and that nothing
was changed.  Device nodes are made with ``os.mknod`` in the test's own directory
(root only; the test is skipped with the reason otherwise).
"""
from __future__ import annotations

import json
import os
import signal
import socket
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import bounded
import recorded
from server import OLD_INCLUDE

# Also run against the lowest allowed dependency versions (scripts/test-floors.sh).
pytestmark = pytest.mark.hostile

V = recorded.vectors_with_record()[0]
N = V["number"]
RECORD = recorded.encode(recorded.resolver_json(V))
T = 60  # seconds: a guard against a hang, not a measurement

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="os.mknod of a device needs root")


def run(args, cwd, tmp_path, **kw):
    return bounded.run([str(a) for a in args], cwd=cwd, cache_dir=tmp_path / "cache",
                       timeout=T, **kw)


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def chardev(path: Path, minor: int = 5) -> Path:
    """A character device in the test's directory: 1,5 is the kernel's zero device
    (endless zeros), 1,3 its null device."""
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    return path


def unix_socket(path: Path) -> socket.socket:
    s = socket.socket(socket.AF_UNIX)
    here = os.getcwd()
    os.chdir(path.parent)  # a relative bind: tmp paths can exceed sun_path's 108 bytes
    try:
        s.bind(path.name)
    finally:
        os.chdir(here)
    return s


def sparse(path: Path, size: int, head: bytes = b"") -> Path:
    """A file of *size* bytes that costs no disk: *head*, then a hole."""
    with open(path, "wb") as f:
        f.write(head)
        f.truncate(size)
    return path


# ----------------------------------------------------------------- verify FILE


@pytest.mark.parametrize("name", ["rec.json", "pith-number.tex", "paper.pdf"])
def test_verify_fifo_is_refused_without_blocking(tmp_path, name):
    fifo(tmp_path / name)
    r = run(["verify", name], tmp_path, tmp_path)
    assert r.rc == 3, r
    assert "a FIFO (named pipe), not a regular file" in r.error_line()
    assert stat.S_ISFIFO(os.lstat(tmp_path / name).st_mode)


@needs_root
@pytest.mark.parametrize("name", ["zero.json", "zero.tex", "zero.pdf"])
def test_verify_device_node_is_refused_unopened(tmp_path, name):
    chardev(tmp_path / name)
    r = run(["verify", name], tmp_path, tmp_path)
    assert r.rc == 3, r
    assert "a character device, not a regular file" in r.error_line()


def test_verify_socket_is_refused(tmp_path):
    s = unix_socket(tmp_path / "s.json")
    try:
        r = run(["verify", "s.json"], tmp_path, tmp_path)
    finally:
        s.close()
    assert r.rc == 3, r
    assert "a socket, not a regular file" in r.error_line()


def test_verify_symlink_to_the_zero_device_is_refused(tmp_path):
    os.symlink("/dev/zero", tmp_path / "z.json")
    r = run(["verify", "z.json"], tmp_path, tmp_path)
    assert r.rc == 3, r
    assert "a character device" in r.error_line()


@pytest.mark.parametrize("name, head", [("big.json", b'{"record_type": "pith_number_record"'),
                                        ("big.tex", OLD_INCLUDE)])
def test_verify_huge_file_is_refused_unread(tmp_path, name, head):
    sparse(tmp_path / name, 300 << 20, head)  # 300 MB, more than the child's memory cap
    r = run(["verify", name], tmp_path, tmp_path)
    assert r.rc == 3, r
    assert "larger than 1 MiB" in r.error_line()


@pytest.mark.parametrize("content, words", [
    (b"", "the file is empty"),
    (b"\n\n", "the file is empty"),
    (b"\\documentclass{article}\n\\begin{document}x\\end{document}\n", "no \\pithrecord"),
    (b"% pith-number.tex: written by `pith-tex fetch` after verifying the record.\n",
     "no \\pithrecord"),
])
def test_verify_an_include_that_is_not_one_is_could_not_check(tmp_path, content, words):
    (tmp_path / "pith-number.tex").write_bytes(content)
    r = run(["verify", "pith-number.tex"], tmp_path, tmp_path)
    assert r.rc == 3, r
    line = r.error_line()
    assert words in line and "not a pith-tex include" in line
    assert "verified" not in r.out.splitlines()
    j = run(["verify", "--json", "pith-number.tex"], tmp_path, tmp_path)
    (f,) = json.loads(j.out)["files"]
    assert (j.rc, f["verdict"], f["kind"]) == (3, "could-not-check", "include")
    assert words in f["error"]


# ----------------------------------------------------------------- verify DIR


@needs_root
def test_verify_dir_with_fifo_device_and_socket_one_line_each(tmp_path):
    d = tmp_path / "records"
    d.mkdir()
    (d / (N + ".json")).write_bytes(RECORD)
    fifo(d / "a-fifo.json")
    chardev(d / "b-zero.json")
    os.symlink("/dev/zero", d / "c-link.json")
    s = unix_socket(d / "d-sock.json")
    try:
        r = run(["verify", "records"], tmp_path, tmp_path)
    finally:
        s.close()
    assert r.rc == 3, r
    lines = r.out.splitlines()
    assert lines[-1] == "5 files: 1 verified, 0 failed, 4 could not be checked"
    by_name = {ln.split()[1].rsplit("/", 1)[-1]: ln for ln in lines[:-1]}
    assert by_name[N + ".json"].startswith("OK    ")
    for name, kind in [("a-fifo.json", "a FIFO"), ("b-zero.json", "a character device"),
                       ("c-link.json", "a character device"), ("d-sock.json", "a socket")]:
        assert by_name[name].startswith("ERROR ") and kind in by_name[name], by_name[name]


def test_verify_dir_names_a_paper_pdf_or_include_that_is_not_a_regular_file(tmp_path):
    """``verify DIR`` checks the paper's PDFs and include beside the JSON: a FIFO, or a
    link to a device, named ``*.pdf`` or ``pith-number.tex`` is said (it was skipped
    without a word, and ``1 file: 1 verified`` came out)."""
    d = tmp_path / "paper"
    d.mkdir()
    (d / (N + ".json")).write_bytes(RECORD)
    fifo(d / "main.pdf")
    os.symlink("/dev/zero", d / "zero.pdf")
    fifo(d / "pith-number.tex")
    r = run(["verify", "paper"], tmp_path, tmp_path)
    assert r.rc == 3, r
    lines = r.out.splitlines()
    assert lines[-1] == "4 files: 1 verified, 0 failed, 3 could not be checked", r
    by_name = {ln.split()[1].rsplit("/", 1)[-1]: ln for ln in lines[:-1]}
    for name, kind in [("main.pdf", "a FIFO"), ("zero.pdf", "a character device"),
                       ("pith-number.tex", "a FIFO")]:
        assert by_name[name].startswith("ERROR ") and kind in by_name[name], by_name[name]


def test_newline_in_a_file_name_cannot_forge_a_report_line(tmp_path):
    d = tmp_path / "records"
    d.mkdir()
    (d / (N + ".json")).write_bytes(RECORD)
    forged = "x.json\nOK    forged.json  " + N + "\n9 files: 9 verified, 0 failed"
    (d / (forged + ".json")).write_bytes(b"not json")
    (d / "esc\x1b[2J.json").write_bytes(b"not json")
    r = run(["verify", "records"], tmp_path, tmp_path)
    assert r.rc == 3, r
    lines = r.out.splitlines()
    assert len(lines) == 4, r  # three files and the summary, nothing more
    assert sum(ln.startswith("OK ") for ln in lines) == 1
    assert not any("forged.json" in ln and ln.startswith("OK") for ln in lines)
    assert "\x1b" not in r.out
    assert lines[-1] == "3 files: 1 verified, 0 failed, 2 could not be checked"
    # a single file: the name in the error line is quoted with its escapes too
    one = run(["verify", "records/" + forged + ".json"], tmp_path, tmp_path)
    assert one.rc == 3 and "'records/x.json\\nOK forged.json" in one.error_line()


# ----------------------------------------------------------------- the cache


def _cache_entry(tmp_path: Path) -> Path:
    d = tmp_path / "cache" / "v1"
    d.mkdir(parents=True)
    return d / (N + ".json")


@pytest.mark.parametrize("make, words", [
    (lambda p: os.symlink("/dev/zero", p), "a symbolic link"),
    (lambda p: sparse(p, 300 << 20, b"{"), "larger than 1 MiB"),
    (fifo, "a FIFO"),
], ids=["dev-zero-link", "300MB", "fifo"])
def test_offline_cache_entry_that_is_not_a_record_file(tmp_path, make, words):
    make(_cache_entry(tmp_path))
    r = run(["fetch", N, "--offline", "-o", "out.tex"], tmp_path, tmp_path)
    assert r.rc == 3, r
    line = r.error_line()
    assert "cache entry" in line and words in line and "delete it" in line
    assert not (tmp_path / "out.tex").exists()


@needs_root
def test_offline_cache_entry_that_is_a_device(tmp_path):
    chardev(_cache_entry(tmp_path))
    r = run(["fetch", N, "--offline", "-o", "out.tex"], tmp_path, tmp_path)
    assert r.rc == 3 and "a character device" in r.error_line(), r


def test_offline_cache_bundle_entry_that_is_a_fifo(tmp_path):
    _cache_entry(tmp_path).write_bytes(RECORD)
    fifo(tmp_path / "cache" / "v1" / (N + ".bundle.json"))
    r = run(["fetch", N, "--offline", "-o", "out.tex"], tmp_path, tmp_path)
    assert r.rc == 3 and "a FIFO" in r.error_line() and "bundle.json" in r.error_line(), r


# ----------------------------------------------------------------- discovery


def _paper(d: Path) -> None:
    (d / "main.tex").write_text("\\documentclass{article}\n\\usepackage{pith}\n"
                                "\\pithnumber{%s}\n" % N)


@pytest.mark.parametrize("make, words", [
    (fifo, "is a FIFO (named pipe), not a regular file"),
    (lambda p: os.symlink("/dev/zero", p), "is a character device, not a regular file"),
    (lambda p: sparse(p, 9 << 20, b"\\pithnumber{%s}\n" % N.encode()), "larger than 8 MiB"),
], ids=["fifo", "dev-zero-link", "9MiB"])
def test_discovery_refuses_tex_files_that_are_not_sources(tmp_path, mirror, make, words):
    paper = tmp_path / "paper"
    paper.mkdir()
    _paper(paper)
    make(paper / "appendix.tex")
    r = run(["fetch", "--resolver", mirror], paper, tmp_path)
    assert r.rc == 3, r
    line = r.error_line()
    assert "appendix.tex" in line and words in line and "pith-tex fetch NUMBER" in line
    assert not (paper / "pith-number.tex").exists()


def test_discovery_skips_a_directory_named_tex(tmp_path, mirror):
    paper = tmp_path / "paper"
    paper.mkdir()
    _paper(paper)
    (paper / "figures.tex").mkdir()
    r = run(["fetch", "--resolver", mirror], paper, tmp_path)
    assert r.rc == 0, r


# ----------------------------------------------------------------- fetch -o


def fetch_to(target, cwd, tmp_path, mirror, *extra):
    return run(["fetch", N, "--resolver", mirror, "-o", target, *extra], cwd, tmp_path)


def test_o_fifo_is_refused_without_blocking(tmp_path, mirror):
    fifo(tmp_path / "pipe")
    r = fetch_to("pipe", tmp_path, tmp_path, mirror)
    assert r.rc == 2, r
    assert "-o pipe is a FIFO (named pipe), not a regular file" in r.error_line()
    assert stat.S_ISFIFO(os.lstat(tmp_path / "pipe").st_mode)
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


@needs_root
def test_o_device_node_is_never_replaced(tmp_path, mirror):
    null = chardev(tmp_path / "null", minor=3)
    before = os.lstat(null)
    r = fetch_to("null", tmp_path, tmp_path, mirror)
    assert r.rc == 2, r
    assert "-o null is a character device, not a regular file" in r.error_line()
    after = os.lstat(null)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    assert after.st_ino == before.st_ino


def test_o_socket_and_directory_are_refused(tmp_path, mirror):
    s = unix_socket(tmp_path / "sock")
    try:
        r = fetch_to("sock", tmp_path, tmp_path, mirror)
    finally:
        s.close()
    assert r.rc == 2 and "a socket, not a regular file" in r.error_line(), r
    (tmp_path / "adir").mkdir()
    r = fetch_to("adir", tmp_path, tmp_path, mirror)
    assert r.rc == 2 and "directory" in r.err, r
    assert os.listdir(tmp_path / "adir") == []


@pytest.mark.parametrize("dangling", [False, True])
def test_o_symlink_is_refused_and_its_target_untouched(tmp_path, mirror, dangling):
    target = tmp_path / "elsewhere.tex"
    if not dangling:
        target.write_bytes(OLD_INCLUDE)
        os.chmod(target, 0o4755)
    os.symlink(target, tmp_path / "pith-number.tex")
    r = fetch_to("pith-number.tex", tmp_path, tmp_path, mirror)
    assert r.rc == 2, r
    line = r.error_line()
    assert "is a symbolic link (to %s)" % target in line and "remove the link" in line
    assert os.path.islink(tmp_path / "pith-number.tex")
    if dangling:
        assert not target.exists()
    else:
        assert target.read_bytes() == OLD_INCLUDE
        assert os.stat(target).st_mode & 0o7777 == 0o4755


@pytest.mark.parametrize("name", ["main.tex", "notes.txt", "pith-number.tex"])
def test_o_onto_a_file_that_is_not_an_include_is_refused(tmp_path, mirror, name):
    paper = b"\\documentclass{article}\n\\begin{document}\nMy paper.\n\\end{document}\n"
    (tmp_path / name).write_bytes(paper)
    os.chmod(tmp_path / name, 0o600)
    # a resolver that cannot answer: the refusal comes before any network access
    r = run(["fetch", N, "--resolver", "http://127.0.0.1:9", "-o", name], tmp_path, tmp_path)
    assert r.rc == 2, r
    line = r.error_line()
    assert ("-o %s: the file exists and is not a pith-tex include" % name) in line
    assert "left untouched" in line and "-o pith-number.tex" in line
    assert (tmp_path / name).read_bytes() == paper
    assert os.stat(tmp_path / name).st_mode & 0o7777 == 0o600


def test_o_onto_a_huge_file_is_refused_unread(tmp_path, mirror):
    sparse(tmp_path / "pith-number.tex", 300 << 20, OLD_INCLUDE)
    r = fetch_to("pith-number.tex", tmp_path, tmp_path, mirror)
    assert r.rc == 2 and "not a pith-tex include" in r.error_line(), r
    assert os.path.getsize(tmp_path / "pith-number.tex") == 300 << 20


def test_o_read_only_include_is_left_as_it_is(tmp_path, mirror):
    inc = tmp_path / "pith-number.tex"
    inc.write_bytes(OLD_INCLUDE)
    os.chmod(inc, 0o444)
    r = fetch_to("pith-number.tex", tmp_path, tmp_path, mirror)
    assert r.rc == 3, r
    assert "pith-number.tex is read-only" in r.error_line() and "chmod u+w" in r.error_line()
    assert inc.read_bytes() == OLD_INCLUDE
    assert os.stat(inc).st_mode & 0o7777 == 0o444


@pytest.mark.parametrize("old", [OLD_INCLUDE, b""], ids=["earlier-include", "empty"])
@pytest.mark.parametrize("mask", [0o022, 0o077])
def test_o_new_mode_is_0644_minus_umask_never_the_old_mode(tmp_path, mirror, old, mask):
    inc = tmp_path / "pith-number.tex"
    inc.write_bytes(old)
    os.chmod(inc, 0o6755)  # setuid, setgid, exec: none of it may survive
    saved = os.umask(mask)  # inherited by the child
    try:
        r = fetch_to("pith-number.tex", tmp_path, tmp_path, mirror)
        r2 = fetch_to("new.tex", tmp_path, tmp_path, mirror)
    finally:
        os.umask(saved)
    assert r.rc == 0 and r2.rc == 0, (r, r2)
    assert inc.read_bytes().startswith(b"% pith-number.tex: written by")
    assert os.stat(inc).st_mode & 0o7777 == 0o644 & ~mask
    assert os.stat(tmp_path / "new.tex").st_mode & 0o7777 == 0o644 & ~mask
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


# ----------------------------------------------------------------- signals


_WRITER = textwrap.dedent("""
    import os, signal, sys
    from pith_tex.atomic import write_atomic

    target, sig, anonymous = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
    # what a terminal gives a command (a CI runner may start us with SIGHUP ignored)
    if sig != signal.SIGKILL:
        signal.signal(sig, signal.default_int_handler if sig == signal.SIGINT else signal.SIG_DFL)
    calls = []

    def write(fd, view):  # the signal arrives in the middle of the write
        if not calls:
            calls.append(1)
            os.kill(os.getpid(), sig)
        return os.write(fd, view[:10])

    write_atomic(target, b"new bytes " * 100, write=write, anonymous=anonymous)
    print("survived")
""")


def _write_killed(tmp_path: Path, sig: int, anonymous: bool) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _WRITER, "pith-number.tex", str(int(sig)),
                           "1" if anonymous else "0"], cwd=tmp_path,
                          env=bounded.child_env(tmp_path / "cache"), capture_output=True,
                          text=True, timeout=T, preexec_fn=bounded.limit_memory)


@pytest.mark.parametrize("anonymous", [True, False], ids=["O_TMPFILE", "named-temp"])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_signal_during_the_write_removes_the_temp_and_keeps_the_old_file(tmp_path, sig,
                                                                         anonymous):
    (tmp_path / "pith-number.tex").write_bytes(OLD_INCLUDE)
    p = _write_killed(tmp_path, sig, anonymous)
    assert "survived" not in p.stdout, p
    assert p.returncode == -sig, p  # it still dies of the signal, as it would have
    assert os.listdir(tmp_path) == ["pith-number.tex"]
    assert (tmp_path / "pith-number.tex").read_bytes() == OLD_INCLUDE


def test_sigkill_during_an_o_tmpfile_write_leaves_nothing(tmp_path):
    from pith_tex import atomic

    fd = atomic._anonymous_temp(str(tmp_path))
    if fd is None:
        pytest.skip("this filesystem has no O_TMPFILE: a SIGKILL can leave a .tmp here")
    os.close(fd)
    (tmp_path / "pith-number.tex").write_bytes(OLD_INCLUDE)
    p = _write_killed(tmp_path, signal.SIGKILL, True)
    assert p.returncode == -signal.SIGKILL, p
    assert os.listdir(tmp_path) == ["pith-number.tex"]
    assert (tmp_path / "pith-number.tex").read_bytes() == OLD_INCLUDE


# ----------------------------------------------------------------- a mirror on disk


@pytest.mark.parametrize("rel", ["pith/%s.json" % N, "pith/%s/bundle.json" % N])
def test_mirror_document_that_is_a_fifo_or_a_zero_link(tmp_path, mirror, rel):
    doc = Path(mirror) / rel
    doc.unlink()
    fifo(doc)
    r = fetch_to("out.tex", tmp_path, tmp_path, mirror)
    assert r.rc == 3, r
    assert "a FIFO (named pipe), not a regular file" in r.error_line()
    doc.unlink()
    os.symlink("/dev/zero", doc)
    r = fetch_to("out.tex", tmp_path, tmp_path, mirror)
    assert r.rc == 3 and "a character device, not a regular file" in r.error_line(), r
    assert not (tmp_path / "out.tex").exists()


def test_o_main_tex_without_number_is_refused_not_number_missing(tmp_path, mirror):
    # The number comes from the paper's \pithnumber; -o names that very file.  The author
    # must hear that -o would overwrite the paper, not that the paper has no \pithnumber.
    paper = ("\\documentclass{article}\n\\usepackage{pith}\n\\pithnumber{%s}\n"
             "\\begin{document}\nMy paper.\n\\end{document}\n" % N).encode()
    (tmp_path / "main.tex").write_bytes(paper)
    r = run(["fetch", "--resolver", mirror, "-o", "main.tex"], tmp_path, tmp_path)
    assert r.rc == 2, r
    line = r.error_line()
    assert "-o main.tex: the file exists and is not a pith-tex include" in line, line
    assert "no \\pithnumber" not in line
    assert (tmp_path / "main.tex").read_bytes() == paper
    assert not (tmp_path / "pith.sty").exists()  # nothing written at all

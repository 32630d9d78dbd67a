"""``pith-tex verify [--json] ARCHIVE.tar`` (issue 31, items 2, 3 and the done-when): the
PDFs of a tar archive streamed, never extracted, one line per PDF member whatever
``--jobs`` says, hostile members refused as lines, a progress bar on a terminal only,
and a run whose worker was killed finished by ``--resume`` with no line lost or doubled.

The archive is real: distinct papers compiled by pdflatex with pith's badge, each with its
own genuine record, plain articles without pith, and hostile members written by tarfile
(a symbolic link, a hard link, ``../x.pdf`` and a member past the 256 MiB cap).
"""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import archives
from pith_tex.verify.archive import done_keys

WITH_PITH, WITHOUT = 8, 4


@pytest.fixture(scope="module")
def tar(tmp_path_factory):
    """(the archive, its PDF members, its hostile members, the PDFs)."""
    root = tmp_path_factory.mktemp("archive")
    pdfs = archives.distinct_pdfs(root / "pdfs", WITH_PITH, WITHOUT)
    path = root / "arXiv_pdf_2601_001.tar"
    names, bad = archives.write_archive(path, pdfs, oversized=True)
    return path, names, bad, pdfs


def verify(*args, cwd=None, stdout=subprocess.PIPE, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pith_tex", "verify", *map(str, args)],
                          stdout=stdout, stderr=subprocess.PIPE, text=True, cwd=cwd,
                          env=env)


def lines_of(text: str) -> list:
    return [json.loads(line) for line in text.splitlines()]


@pytest.fixture(scope="module")
def one_job(tar):
    """The JSON Lines of ``--jobs 1``: the reference every other way must give."""
    path, *_ = tar
    r = verify("--json", "--jobs", "1", path)
    assert r.returncode == 3, r.stderr  # the hostile members could not be checked
    return r.stdout


def test_one_line_per_pdf_member_and_hostile_members_refused(tar, one_job, tmp_path):
    path, names, bad, pdfs = tar
    lines = lines_of(one_job)
    assert [(x["archive"], x["member"]) for x in lines] == [
        (str(path), n) for n in names + bad]
    by = {x["member"]: x for x in lines}
    numbers = set()
    for n in names:
        x = by[n]
        if "/pith-" in n:
            assert x["exit_code"] == 0 and not x["no_pith_number"], x
            numbers.add(x["number"])
        else:
            assert x["no_pith_number"] and x["exit_code"] == 3 and x["number"] is None, x
    assert len(numbers) == WITH_PITH  # distinct papers, distinct numbers
    for n in bad:
        assert by[n]["kind"] == "member" and by[n]["exit_code"] == 3, by[n]
        assert by[n]["error"].startswith("refused: "), by[n]
    # the same bytes as a file give the same verdict
    alone = json.loads(verify("--json", pdfs[0]).stdout)["files"][0]
    assert {k: v for k, v in by[names[0]].items() if k not in ("archive", "member", "path",
                                                               "no_pith_number")} \
        == {k: v for k, v in alone.items() if k != "path"}


def test_nothing_is_extracted_and_no_link_is_followed(tar, tmp_path):
    path, names, bad, _ = tar
    work, scratch = tmp_path / "work" / "in", tmp_path / "tmp"
    work.mkdir(parents=True)
    scratch.mkdir()
    r = verify("--json", "--jobs", "1", path, cwd=work,
               env=dict(os.environ, TMPDIR=str(scratch)))
    assert r.returncode == 3
    assert list(work.iterdir()) == [] and sorted(p.name for p in (tmp_path / "work").iterdir()) \
        == ["in"]
    # the engines' child may use TMPDIR for a moment; nothing of the archive stays
    assert list(scratch.iterdir()) == []
    text = "\n".join(x.get("error") or "" for x in lines_of(r.stdout))
    assert "root:" not in text  # /etc/passwd, the symlink's target, never read


def test_two_jobs_give_the_same_lines(tar, one_job):
    path, *_ = tar
    r = verify("--json", "--jobs", "2", path)
    assert r.returncode == 3, r.stderr
    assert r.stdout == one_job


def test_a_compressed_archive_is_streamed(tar, one_job, tmp_path):
    path, names, bad, pdfs = tar
    gz = tmp_path / "arXiv_pdf_2601_002.tar.gz"
    archives.write_archive(gz, pdfs)  # no oversized member: gzip is slow on 256 MiB
    got = lines_of(verify("--json", "--jobs", "2", gz).stdout)
    want = [x for x in lines_of(one_job) if x["member"] != "2601/huge.pdf"]
    assert [{**x, "archive": None} for x in got] == [{**x, "archive": None} for x in want]


def test_not_a_tar_archive_could_not_be_checked(tmp_path):
    junk = tmp_path / "junk.tar"
    junk.write_bytes(b"%PDF-1.4 this is no tar file\n" * 40)
    r = verify("--json", junk)
    assert r.returncode == 3 and r.stdout == ""
    assert r.stderr.startswith("error: ") and "Traceback" not in r.stderr, r.stderr


def test_a_cut_archive_gives_the_lines_before_the_cut(tar, tmp_path):
    _, _, _, pdfs = tar
    whole = tmp_path / "whole.tar"
    names, _ = archives.write_archive(whole, pdfs[:4], hostile=False)
    cut = tmp_path / "cut.tar"
    cut.write_bytes(whole.read_bytes()[:int(whole.stat().st_size * 0.6)])
    for jobs in ("1", "2"):
        r = verify("--json", "--jobs", jobs, cut)
        assert r.returncode == 3 and "not a readable tar archive" in r.stderr, r.stderr
        got = [x["member"] for x in lines_of(r.stdout)]
        assert got and got == names[:len(got)] and len(got) < len(names), got


def _workers(main: int) -> list:
    """The worker processes of the process *main* (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path("/proc", entry, "stat").read_text()
            cmdline = Path("/proc", entry, "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == main and b"spawn_main" in cmdline:
            found.append(int(entry))
    return found


def test_a_killed_worker_loses_no_written_line_and_resume_finishes(tar, one_job, tmp_path):
    path, names, bad, _ = tar
    out = tmp_path / "out.jsonl"
    with open(out, "w") as f:
        p = subprocess.Popen([sys.executable, "-m", "pith_tex", "verify", "--json", "--jobs",
                              "2", str(path)], stdout=f, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300
        while out.read_text().count("\n") < 2 and p.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        workers = _workers(p.pid)
        assert workers, "no worker process"
        os.kill(workers[0], signal.SIGKILL)
        _, err = p.communicate(timeout=300)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 3 and "--resume" in err, err
    first = out.read_text()
    assert first.endswith("\n")
    written = lines_of(first)  # every line whole
    assert 2 <= len(written) < len(names + bad)
    assert first == one_job[:len(first)]  # in order, each as --jobs 1 writes it
    with open(out, "a") as f:
        r = verify("--json", "--jobs", "2", "--resume", out, path, stdout=f)
    assert r.returncode == 3, r.stderr
    assert sorted(out.read_text().splitlines()) == sorted(one_job.splitlines())
    again = verify("--json", "--resume", out, path)  # nothing left to do
    assert again.stdout == "" and again.returncode == 0, again.stderr


def test_resume_cuts_a_line_cut_short(tmp_path, one_job):
    out = tmp_path / "out.jsonl"
    lines = one_job.splitlines(keepends=True)
    out.write_text(lines[0] + lines[1] + lines[2][:40])
    keys = done_keys(str(out))
    assert len(keys) == 2 and out.read_text() == lines[0] + lines[1]


def _stderr(path: Path, terminal: bool) -> bytes:
    if not terminal:
        return verify("--json", "--jobs", "1", path).stderr.encode()
    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "pith_tex", "verify", "--json", "--jobs", "1",
                          str(path)], stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    got = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        got += chunk
    p.wait()
    os.close(master)
    return got


def test_a_progress_bar_on_a_terminal_and_nothing_on_a_pipe(tar, tmp_path):
    _, _, _, pdfs = tar
    small = tmp_path / "small.tar"
    archives.write_archive(small, pdfs[:3], hostile=False)
    piped = _stderr(small, terminal=False)
    shown = _stderr(small, terminal=True)
    assert b"\r" not in piped and len(piped.splitlines()) == 1, piped  # the summary
    assert b"\r" in shown and b"%" in shown, shown  # click redraws its bar: rate and ETA
    assert shown.rstrip().endswith(piped.rstrip()), (shown, piped)


# -- Dask (pip install 'pith-tex[scale]'): a real LocalCluster of 2 process workers -----


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                      dashboard_address=None) as c:
        yield c


def _sorted(lines: list) -> list:
    return sorted(lines, key=lambda x: (x["archive"], x["member"]))


def test_a_dask_cluster_gives_the_lines_of_one_job(tar, one_job, cluster, tmp_path):
    from distributed import Client

    from pith_tex.scale import verify_archives

    path, names, bad, pdfs = tar
    want = _sorted(lines_of(one_job))
    with Client(cluster) as client:
        got = list(verify_archives(client, [str(path)]))
        assert _sorted(got) == want
        # a compressed archive: its members' bytes travel with the tasks
        gz = tmp_path / "arXiv_pdf_2601_003.tar.gz"
        archives.write_archive(gz, pdfs[:2] + pdfs[-1:], hostile=False)
        got = list(verify_archives(client, [str(gz)]))
        assert _sorted([{**x, "archive": None} for x in got]) == _sorted(
            [{**x, "archive": None} for x in want
             if x["member"] in ("2601/" + p.name for p in pdfs[:2] + pdfs[-1:])])
    # the command: the same JSON Lines through the scheduler, and --resume
    out = tmp_path / "dask.jsonl"
    out.write_text("".join(line + "\n" for line in one_job.splitlines()[:5]))
    with open(out, "a") as f:
        r = verify("--json", "--scheduler", cluster.scheduler_address, "--resume", out, path,
                   stdout=f)
    assert r.returncode == 3, r.stderr
    assert _sorted(lines_of(out.read_text())) == want


def test_the_scheduler_writes_json_lines_only(tar, cluster):
    path, *_ = tar
    r = verify("--scheduler", cluster.scheduler_address, path)
    assert r.returncode == 2 and "--json" in r.stderr, r.stderr


def test_dask_is_an_extra_the_command_never_imports(tmp_path):
    import tomllib

    meta = tomllib.loads((Path(__file__).resolve().parents[3] / "pyproject.toml").read_text())
    assert not any("dask" in d for d in meta["project"]["dependencies"])
    assert any(d.startswith("dask[distributed]")
               for d in meta["project"]["optional-dependencies"]["scale"])
    junk = tmp_path / "junk.tar"
    junk.write_bytes(b"not a tar\n" * 100)
    code = ("import sys\nfrom pith_tex.cli import main\ntry:\n    main(['verify', '--json', "
            "'--jobs', '2', %r])\nexcept SystemExit:\n    pass\n"
            "print([m for m in ('dask', 'distributed') if m in sys.modules])" % str(junk))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.strip().splitlines()[-1] == "[]", r.stdout + r.stderr

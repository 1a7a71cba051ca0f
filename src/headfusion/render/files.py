"""I/O at the edge: safe file names, atomic writes and the LaTeX engine that builds PDFs.

Every file is written atomically (a temporary file in the target folder, then os.replace),
so a reader never sees half a file; `atomic_write_set` does the same for a set of files
(all temporaries first, then the renames with SIGINT/SIGTERM held back), so a reader never
sees half a set.  `compile_pdf` runs latexmk or pdflatex in the .tex
file's own folder with reproducible dates (SOURCE_DATE_EPOCH) and turns a failure into a
one-line `RenderError` quoting the first LaTeX error.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from headfusion.render.errors import RenderError
from headfusion.spec.errors import InputError

LATEX_TIMEOUT = 600  # seconds per engine run

INSTALL_HINT = "apt-get install -y texlive-latex-base texlive-latex-recommended texlive-pictures latexmk"

_SAFE = re.compile(r"[^A-Za-z0-9_.-]")


def sanitize_slug(slug: object) -> str:
    """A file-name-safe slug: [A-Za-z0-9_.-] only, no leading dot, never empty."""
    text = _SAFE.sub("_", str(slug)).lstrip(".")
    return text[:120] or "certificate"


def safe_file_name(name: object) -> bool:
    """True for a plain file name (no folder): [A-Za-z0-9_.-] only, no leading dot, not empty."""
    return isinstance(name, str) and not _SAFE.search(name) and not name.startswith(".") and bool(name)


def latex_engine() -> str | None:
    """"latexmk" or "pdflatex" when found on PATH, else None."""
    if shutil.which("pdflatex") is None:
        return None
    return "latexmk" if shutil.which("latexmk") is not None else "pdflatex"


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def atomic_write(path: Path, data: bytes) -> None:
    """Write data to path atomically: a temporary file in the same folder, then os.replace."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp creates 0600; give the usual permissions
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write_set(files: list[tuple[Path, bytes]]) -> None:
    """Write several files so that the folder holds the old set or the new set, never a mix.

    Order: (1) every target is checked (an existing folder or other non-file of that name is
    refused with InputError, nothing written); (2) every file is written to a temporary
    `.<name>.*.tmp` beside its target and fsynced; (3) with SIGINT and SIGTERM blocked, the
    temporaries are renamed over their targets in the given order (callers put the .json,
    the certificate itself, last) and the folder is fsynced; (4) the signals are unblocked, so
    a pending Ctrl-C or SIGTERM acts only after the whole set is in place.  Any exception
    before (3) removes the temporaries.  SIGKILL cannot be blocked: it can leave .tmp files
    behind, and only a SIGKILL inside the renames (microseconds) could leave a mix.
    """
    check_targets([path for path, _ in files])
    temporaries: list[tuple[str, Path]] = []
    try:
        for path, data in files:
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            temporaries.append((tmp, path))
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o666 & ~_umask())
        with _signals_held():
            while temporaries:
                tmp, path = temporaries[0]
                os.replace(tmp, path)
                temporaries.pop(0)
            _fsync_dir({path.parent for path, _ in files})
    except IsADirectoryError as exc:
        raise InputError(f"cannot write {exc.filename or 'a file'}: a folder of that name exists") from None
    finally:
        for tmp, _ in temporaries:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def check_targets(paths: list[Path]) -> None:
    """InputError when a target name is taken by a folder, a symlink or another non-file (nothing written)."""
    for path in paths:
        if path.is_symlink() or (path.exists() and not path.is_file()):
            raise InputError(f"cannot write {path}: something that is not a regular file has that name")


class _signals_held:
    """Block SIGINT and SIGTERM in a with-block (main thread, POSIX); pending ones act on exit."""

    def __enter__(self) -> None:
        import signal
        import threading

        self.previous = None
        if hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread():
            self.previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})

    def __exit__(self, *exc: object) -> None:
        import signal

        if self.previous is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.previous)


def _fsync_dir(folders: set[Path]) -> None:
    for folder in folders:
        try:
            fd = os.open(folder, os.O_RDONLY)
        except OSError:
            continue
        try:
            os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)


def _first_latex_error(log: str) -> str:
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("!"):
            where = next((l.strip() for l in lines[i + 1 : i + 12] if re.match(r"l\.\d+", l)), "")
            return " ".join((line + (" (" + where + ")" if where else "")).split())
    return ""


def _run_group(command: list[str], workdir: Path, env: dict) -> subprocess.CompletedProcess:
    """Run the engine in its own process group; on any exit (timeout, Ctrl-C, SIGTERM) kill the
    whole group (latexmk and the pdflatex it started) and wait, so its folder can be removed."""
    import signal

    process = subprocess.Popen(command, cwd=workdir, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=LATEX_TIMEOUT)
    except BaseException:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            pass
        process.wait()
        raise
    return subprocess.CompletedProcess(command, process.returncode, output, None)


def compile_pdf(tex_path: Path, engine: str) -> Path:
    """Compile tex_path (in its own directory) and return the PDF path; RenderError on failure."""
    workdir = tex_path.parent
    env = dict(os.environ)
    env.setdefault("SOURCE_DATE_EPOCH", "0")  # reproducible PDF dates
    env.setdefault("FORCE_SOURCE_DATE", "1")
    if engine == "latexmk":
        commands = [["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", tex_path.name]]
    else:
        commands = [["pdflatex", "-interaction=nonstopmode", "-halt-on-error", tex_path.name]] * 2
    for command in commands:
        try:
            proc = _run_group(command, workdir, env)
        except subprocess.TimeoutExpired:
            raise RenderError(f"{command[0]} did not finish within {LATEX_TIMEOUT} s") from None
        except OSError as exc:
            raise RenderError(f"cannot run {command[0]}: {exc}") from None
        if proc.returncode != 0:
            log_path = tex_path.with_suffix(".log")
            log = log_path.read_text(encoding="utf-8", errors="replace") if log_path.exists() else ""
            error = _first_latex_error(log) or _first_latex_error(proc.stdout.decode("utf-8", "replace"))
            raise RenderError(f"LaTeX failed on {tex_path.name}: {error or f'{command[0]} exited with {proc.returncode}'}")
    pdf = tex_path.with_suffix(".pdf")
    if not pdf.exists():
        raise RenderError(f"{engine} produced no PDF for {tex_path.name}")
    return pdf

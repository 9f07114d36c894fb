"""Text files as users have them: gzip'd or not, with or without a byte order mark, in UTF-8 or
in an encoding they name (`--encoding latin-1`).

DuckDB's `read_text` reads plain UTF-8 only, so a line file that is gzip'd or in another
encoding is decoded here and handed over as text; CSV files go to DuckDB's `read_csv`, which
decompresses gzip and decodes the three encodings it knows. A file that does not decode is
refused with the line it fails on, never read with replacement characters.
"""

from __future__ import annotations

import codecs
import gzip
import os
import shutil
import stat
import tempfile
import zlib
from pathlib import Path

from ..engine import spill
from ..errors import InputError, ParamsError

GZIP_MAGIC = b"\x1f\x8b"
BOM = "\ufeff"
UTF8 = "utf-8"
# Python's names of the encodings DuckDB's read_csv decodes itself, with DuckDB's names.
CSV_ENCODINGS = {"utf-8": "utf-8", "iso8859-1": "latin-1", "utf-16": "utf-16"}
# encodings that give every ASCII character (digit, separator, line break) a zero byte
WIDE_ENCODINGS = ("utf-16", "utf-32")
# the private folders holding streams' copies, removed when the process ends
_COPIES: list[tempfile.TemporaryDirectory[str]] = []


def encoding_name(encoding: str | None, option: str = "--encoding") -> str:
    """Python's canonical name of an encoding (`latin1` and `ISO-8859-1` are `iso8859-1`);
    UTF-8 when none is given.

    Example:
        >>> encoding_name("Latin1"), encoding_name(None), encoding_name("UTF8")
        ('iso8859-1', 'utf-8', 'utf-8')
    """
    if encoding is None:
        return UTF8
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        raise ParamsError(
            f"{option} {encoding!r}: unknown encoding (e.g. utf-8, latin-1)"
        ) from None
    if name == "utf-8-sig":
        return UTF8
    try:
        "".encode(name)
    except LookupError:  # a codec that is no text encoding (base64, zlib...)
        raise ParamsError(f"{option} {encoding!r} is not a text encoding") from None
    return name


def is_stream(path: Path) -> bool:
    """Whether `path` is a stream that can be read once only: a FIFO, the `/dev/fd/N` of a
    shell's `<(cmd)`, `/dev/stdin` on a pipe or a terminal (not a regular file nor a folder).

    Example:
        >>> is_stream(Path(__file__)), is_stream(Path("/nonexistent"))
        (False, False)
    """
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISSOCK(mode)


def shown(path: Path) -> Path:
    """The path to name in messages and the registry: a file's real path, but a stream's as
    given (resolving `/dev/stdin` or `/dev/fd/63` gives `/proc/<pid>/fd/pipe:[...]`)."""
    return Path(os.path.abspath(path)) if is_stream(path) else path.resolve()


def read_once(path: Path) -> Path:
    """A stream's whole content, copied in one pass into a file of a private folder of this
    process (removed when it ends, or by a later process if it is killed): the readers open
    their input more than once (to sniff its compression and format, then to read it), and a
    pipe gives its content to the first reader only. Waiting for the writer and the copy
    stop on Ctrl-C and SIGTERM like any other step."""
    folder = spill.private_folder()
    _COPIES.append(folder)
    copy = Path(folder.name) / (path.name or "input")
    with path.open("rb") as stream, copy.open("wb") as out:
        shutil.copyfileobj(stream, out, 1 << 20)
    return copy


def is_gzip(path: Path) -> bool:
    """Whether the file is gzip'd, by its first two bytes (whatever its name)."""
    try:
        with path.open("rb") as f:
            return f.read(2) == GZIP_MAGIC
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}") from e


def plain_suffix(path: Path) -> str:
    """The suffix that names the file's kind, under a `.gz`: `x.csv.gz` is a CSV file.

    Example:
        >>> plain_suffix(Path("b.CSV.gz")), plain_suffix(Path("b.dat")), plain_suffix(Path("x.gz"))
        ('.csv', '.dat', '')
    """
    name = path.name.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    return Path(name).suffix


def head(path: Path, size: int, *, gzipped: bool) -> bytes:
    """The first `size` bytes of the file's text (decompressed when it is gzip'd)."""
    try:
        with gzip.open(path, "rb") if gzipped else path.open("rb") as f:
            return f.read(size)
    except (OSError, EOFError, zlib.error) as e:
        raise InputError(f"cannot read {path}: {e}") from e


def read_bytes(path: Path) -> bytes:
    """The file's whole content, decompressed when it is gzip'd: opened once, so a stream
    (a FIFO, `<(cmd)`) is read as a file is."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}") from e
    if not data.startswith(GZIP_MAGIC):
        return data
    try:
        return gzip.decompress(data)
    except (EOFError, zlib.error, gzip.BadGzipFile) as e:
        raise InputError(f"cannot read {path} as a gzip'd file: {e}") from e


def check_wide(data: bytes, path: Path, encoding: str, option: str) -> None:
    r"""Refuse text said to be UTF-16 or UTF-32 that holds no zero byte: such text has one in
    every digit, separator and line break, so this is UTF-8 or another 8-bit encoding, which
    decoded as UTF-16 gives a few lines of CJK-looking characters, not an error (a line file
    read so was one transaction of one item).

    Example:
        >>> check_wide("1 2\n".encode("utf-16"), Path("a.txt"), "utf-16", "--encoding")
        >>> check_wide(b"1 2\n", Path("a.txt"), "utf-16", "--encoding")
        Traceback (most recent call last):
        ...
        setanon_sql.errors.InputError: a.txt is not utf-16 text: it has no zero byte, which utf-16 gives every digit, separator and line break; give the file's encoding with --encoding, e.g. --encoding utf-8
    """
    if encoding.startswith(WIDE_ENCODINGS) and data and b"\0" not in data:
        raise InputError(
            f"{path} is not {encoding} text: it has no zero byte, which {encoding} gives every "
            f"digit, separator and line break; give the file's encoding with {option}, "
            f"e.g. {option} utf-8"
        )


def check_wide_file(
    path: Path, encoding: str, option: str, *, gzipped: bool, shown: Path | None = None
) -> None:
    """`check_wide` on the head of a file DuckDB will decode (a CSV file), which takes UTF-8
    for UTF-16 without a word; a message names the file `shown`, if given."""
    if encoding.startswith(WIDE_ENCODINGS):
        check_wide(head(path, 65536, gzipped=gzipped), shown or path, encoding, option)


def decode(data: bytes, path: Path, encoding: str, option: str) -> str:
    """The text of `data` in `encoding`, without a leading byte order mark; a byte that is not
    of the encoding is an error that names its line (and `option`, to give the right one)."""
    check_wide(data, path, encoding, option)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        raise InputError(undecodable(path, data, e, encoding, option)) from e
    return text.removeprefix(BOM)


def read_text(path: Path, encoding: str | None = None, option: str = "--encoding") -> str:
    """A text file's content, decompressed and decoded (UTF-8 unless `encoding`)."""
    return decode(read_bytes(path), path, encoding_name(encoding, option), option)


def first_undecodable(
    path: Path, encoding: str, option: str, shown: Path | None = None
) -> str | None:
    """Why the file is not text in `encoding` (the line it fails on), or None when it is: for
    an error DuckDB reported, to say what it is (naming the file `shown`, if given)."""
    try:
        data = read_bytes(path)
        data.decode(encoding)
    except UnicodeDecodeError as e:
        return undecodable(shown or path, data, e, encoding, option)
    except InputError:
        return None
    return None


def undecodable(path: Path, data: bytes, e: UnicodeDecodeError, encoding: str, option: str) -> str:
    """One line: which file, which line, which byte, and how to read it."""
    before = data[: e.start].decode(encoding, errors="replace")
    line = before.count("\n") + 1
    column = len(before) - (before.rfind("\n") + 1) + 1
    byte = data[e.start : e.start + 1].hex()
    hint = "latin-1" if encoding == UTF8 else "utf-8"
    name = "UTF-8" if encoding == UTF8 else encoding
    return (
        f"{path}: line {line} is not {name} text (byte 0x{byte} at column {column}); give the "
        f"file's encoding with {option}, e.g. {option} {hint}"
    )


def quoted_items(sep: str) -> str:
    r"""The RE2 pattern of one item of a set joined by the character `sep`, CSV quoting
    respected: a quoted item (it may hold `sep`; "" is one quote inside), or text up to `sep`.

    Example:
        >>> print(quoted_items(";"))
        "(?:[^"]|"")*"|[^"\;][^\;]*
    """
    one = sep if sep.isalnum() else "\\" + sep
    return f'"(?:[^"]|"")*"|[^"{one}][^{one}]*'


MARK = "\x1f"
"""A separator of several characters is read as this one character (the unit separator)."""


def quoting(sep: str) -> dict[str, str]:
    """The parameters of the quoted text readers: the separator, the one character it is read
    as (itself when it is one: a pattern cannot say "up to a string" without look-ahead, which
    RE2 has not), and the pattern of one item.

    Example:
        >>> quoting("::")["mark"] == MARK
        True
    """
    mark = sep if len(sep) == 1 else MARK
    return {"sep": sep, "mark": mark, "pattern": quoted_items(mark)}

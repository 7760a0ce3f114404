"""Typeset held-out probes' PDFs from documents Debian ships without a PDF (plain text, Markdown,
reStructuredText, manual pages).

    .venv/bin/python bench/probes/make_pdfs.py

writes the PDF of each entry of `SOURCES` to bench/probes/<probe>/pdfs/, as a reader would get it (paragraphs
reflowed, headings, bullet lists, ruled tables, code in a fixed font, a running header and page numbers; a manual
page formatted by groff, its tables by tbl). What each probe holds is its entry's "kind" in
bench/probes/corpora.json, not repeated here. Only for the bench; nothing in the product reads it.
"""

from __future__ import annotations

import gzip
import re
import subprocess
import textwrap
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import cm
from reportlab.platypus import ListFlowable, Paragraph, Preformatted, SimpleDocTemplate, Spacer, Table, TableStyle

PROBES = Path(__file__).parent
SOURCES = {  # probe / pdf name: (source, title)
    "protocols/xkbproto.pdf": (
        "/usr/share/doc/kbproto/xkbproto.txt.gz",
        "The X Keyboard Extension: Protocol Specification",
    ),
    "protocols/libpng-manual.pdf": ("/usr/share/doc/libpng16-16/libpng-manual.txt.gz", "libpng manual"),
    "apis/child_process.pdf": ("/usr/share/doc/nodejs/api/child_process.md", "Node.js API: Child process"),
    "apis/errors.pdf": ("/usr/share/doc/nodejs/api/errors.md", "Node.js API: Errors"),
    "reference/x11protocol.pdf": ("/usr/share/doc/xproto/x11protocol.txt.gz", "X Window System Protocol"),
    "reference/slang.pdf": ("/usr/share/doc/libslang2/slang.txt.gz", "A Guide to the S-Lang Language"),
    "manpages/tcp.7.pdf": ("/usr/share/man/man7/tcp.7.gz", "tcp(7): TCP protocol"),
    "manpages/tmux.1.pdf": ("/usr/share/man/man1/tmux.1.gz", "tmux(1): terminal multiplexer"),
    "kernel/capabilities.7.pdf": ("/usr/share/man/man7/capabilities.7.gz", "capabilities(7): Linux capabilities"),
    "kernel/find.1.pdf": ("/usr/share/man/man1/find.1.gz", "find(1): search for files in a directory hierarchy"),
    "cli/jq.1.pdf": ("/usr/share/man/man1/jq.1.gz", "jq(1): command-line JSON processor"),
    "cli/wget.1.pdf": ("/usr/share/man/man1/wget.1.gz", "wget(1): the non-interactive network downloader"),
    "configs/systemd.service.5.pdf": (
        "/usr/share/man/man5/systemd.service.5.gz",
        "systemd.service(5): service unit configuration",
    ),
    "configs/ssh_config.5.pdf": (
        "/usr/share/man/man5/ssh_config.5.gz",
        "ssh_config(5): OpenSSH client configuration file",
    ),
    "admin/journald.conf.5.pdf": (
        "/usr/share/man/man5/journald.conf.5.gz",
        "journald.conf(5): journal service configuration",
    ),
    "admin/apt_preferences.5.pdf": (
        "/usr/share/man/man5/apt_preferences.5.gz",
        "apt_preferences(5): preference control file for APT",
    ),
    "admin/less.1.pdf": ("/usr/share/man/man1/less.1.gz", "less(1): opposite of more"),
    "guides/sedfaq.pdf": ("/usr/share/doc/sed/sedfaq.txt.gz", "The sed FAQ"),
    "guides/triggers.pdf": ("/usr/share/doc/dpkg/spec/triggers.txt", "dpkg triggers specification"),
    "formats/gnupg-details.pdf": ("/usr/share/doc/gnupg/DETAILS.gz", "GnuPG Details"),
    "formats/libjpeg.pdf": ("/usr/share/doc/libjpeg62-turbo-dev/libjpeg.txt.gz", "Using the IJG JPEG library"),
    "storage/mke2fs.8.pdf": ("/usr/share/man/man8/mke2fs.8.gz", "mke2fs(8): create an ext2/ext3/ext4 file system"),
    "storage/ext4.5.pdf": ("/usr/share/man/man5/ext4.5.gz", "ext4(5): the fourth extended file system"),
    "runtime/dns.pdf": ("/usr/share/doc/nodejs/api/dns.md", "Node.js API: DNS"),
    "runtime/worker_threads.pdf": ("/usr/share/doc/nodejs/api/worker_threads.md", "Node.js API: Worker threads"),
    "timers/systemd.timer.5.pdf": (
        "/usr/share/man/man5/systemd.timer.5.gz",
        "systemd.timer(5): timer unit configuration",
    ),
    "timers/tmpfiles.d.5.pdf": (
        "/usr/share/man/man5/tmpfiles.d.5.gz",
        "tmpfiles.d(5): configuration for creation, deletion and cleaning of files",
    ),
    "events/events.pdf": ("/usr/share/doc/nodejs/api/events.md", "Node.js API: Events"),
    "events/readline.pdf": ("/usr/share/doc/nodejs/api/readline.md", "Node.js API: Readline"),
    "vcs/gitattributes.5.pdf": ("/usr/share/man/man5/gitattributes.5.gz", "gitattributes(5): attributes per path"),
    "vcs/githooks.5.pdf": ("/usr/share/man/man5/githooks.5.gz", "githooks(5): hooks used by Git"),
    "archives/xz.1.pdf": ("/usr/share/man/man1/xz.1.gz", "xz(1): compress or decompress .xz and .lzma files"),
    "archives/zip.1.pdf": ("/usr/share/man/man1/zip.1.gz", "zip(1): package and compress (archive) files"),
    "shells/dash.1.pdf": ("/usr/share/man/man1/dash.1.gz", "dash(1): command interpreter (shell)"),
    "shells/sources.list.5.pdf": (
        "/usr/share/man/man5/sources.list.5.gz",
        "sources.list(5): APT's list of data sources",
    ),
    "system/fstab.5.pdf": ("/usr/share/man/man5/fstab.5.gz", "fstab(5): static information about the filesystems"),
    "system/core.5.pdf": ("/usr/share/man/man5/core.5.gz", "core(5): core dump file"),
    "system/signal.7.pdf": ("/usr/share/man/man7/signal.7.gz", "signal(7): overview of signals"),
    "sysconf/resolv.conf.5.pdf": (
        "/usr/share/man/man5/resolv.conf.5.gz",
        "resolv.conf(5): resolver configuration file",
    ),
    "sysconf/nsswitch.conf.5.pdf": (
        "/usr/share/man/man5/nsswitch.conf.5.gz",
        "nsswitch.conf(5): Name Service Switch configuration file",
    ),
    "sysconf/pipe.7.pdf": ("/usr/share/man/man7/pipe.7.gz", "pipe(7): overview of pipes and FIFOs"),
    "accounts/login.defs.5.pdf": (
        "/usr/share/man/man5/login.defs.5.gz",
        "login.defs(5): shadow password suite configuration",
    ),
    "accounts/adduser.conf.5.pdf": (
        "/usr/share/man/man5/adduser.conf.5.gz",
        "adduser.conf(5): configuration for adduser",
    ),
    "accounts/passwd.5.pdf": ("/usr/share/man/man5/passwd.5.gz", "passwd(5): the password file"),
    "sockets/unix.7.pdf": ("/usr/share/man/man7/unix.7.gz", "unix(7): sockets for local interprocess communication"),
    "sockets/udp.7.pdf": ("/usr/share/man/man7/udp.7.gz", "udp(7): User Datagram Protocol for IPv4"),
    "sockets/inotify.7.pdf": ("/usr/share/man/man7/inotify.7.gz", "inotify(7): monitoring filesystem events"),
    "packages/deb-control.5.pdf": (
        "/usr/share/man/man5/deb-control.5.gz",
        "deb-control(5): Debian binary packages' master control file format",
    ),
    "packages/apt.conf.5.pdf": ("/usr/share/man/man5/apt.conf.5.gz", "apt.conf(5): configuration file for APT"),
    "packages/gzip.1.pdf": ("/usr/share/man/man1/gzip.1.gz", "gzip(1): compress or expand files"),
    "layout/hier.7.pdf": ("/usr/share/man/man7/hier.7.gz", "hier(7): description of the filesystem hierarchy"),
    "layout/environ.7.pdf": ("/usr/share/man/man7/environ.7.gz", "environ(7): user environment"),
    "layout/gitignore.5.pdf": (
        "/usr/share/man/man5/gitignore.5.gz",
        "gitignore(5): specifies intentionally untracked files to ignore",
    ),
    "loading/ld.so.8.pdf": ("/usr/share/man/man8/ld.so.8.gz", "ld.so(8): dynamic linker/loader"),
    "loading/credentials.7.pdf": ("/usr/share/man/man7/credentials.7.gz", "credentials(7): process identifiers"),
    "loading/regex.7.pdf": ("/usr/share/man/man7/regex.7.gz", "regex(7): POSIX.2 regular expressions"),
    "ipc/epoll.7.pdf": ("/usr/share/man/man7/epoll.7.gz", "epoll(7): I/O event notification facility"),
    "ipc/mq_overview.7.pdf": (
        "/usr/share/man/man7/mq_overview.7.gz",
        "mq_overview(7): overview of POSIX message queues",
    ),
    "ipc/namespaces.7.pdf": ("/usr/share/man/man7/namespaces.7.gz", "namespaces(7): overview of Linux namespaces"),
    "procfs/proc.5.pdf": ("/usr/share/man/man5/proc.5.gz", "proc(5): process information pseudo-filesystem"),
    "procfs/cgroups.7.pdf": ("/usr/share/man/man7/cgroups.7.gz", "cgroups(7): Linux control groups"),
    "apiref/deprecations.pdf": ("/usr/share/doc/nodejs/api/deprecations.md", "Node.js: Deprecated APIs"),
    "apiref/pkg_resources.pdf": (
        "/usr/share/doc/python3-pkg-resources/pkg_resources.rst.gz",
        "Package Discovery and Resource Access using pkg_resources",
    ),
    "terminals/termios.3.pdf": ("/usr/share/man/man3/termios.3.gz", "termios(3): get and set terminal attributes"),
    "terminals/sched.7.pdf": ("/usr/share/man/man7/sched.7.gz", "sched(7): overview of CPU scheduling"),
    "terminals/tar.1.pdf": ("/usr/share/man/man1/tar.1.gz", "tar(1): an archiving utility"),
    "modules/cli.pdf": ("/usr/share/doc/nodejs/api/cli.md", "Node.js API: Command-line API"),
    "modules/esm.pdf": ("/usr/share/doc/nodejs/api/esm.md", "Node.js API: ECMAScript modules"),
    "networking/socket.7.pdf": ("/usr/share/man/man7/socket.7.gz", "socket(7): Linux socket interface"),
    "networking/ip.7.pdf": ("/usr/share/man/man7/ip.7.gz", "ip(7): Linux IPv4 protocol implementation"),
    "networking/pthreads.7.pdf": ("/usr/share/man/man7/pthreads.7.gz", "pthreads(7): POSIX threads"),
    "transfers/curl.1.pdf": ("/usr/share/man/man1/curl.1.gz", "curl(1): transfer a URL"),
    "transfers/url.pdf": ("/usr/share/doc/nodejs/api/url.md", "Node.js API: URL"),
    "transfers/user_namespaces.7.pdf": (
        "/usr/share/man/man7/user_namespaces.7.gz",
        "user_namespaces(7): overview of Linux user namespaces",
    ),
    "mounts/mount.8.pdf": ("/usr/share/man/man8/mount.8.gz", "mount(8): mount a filesystem"),
    "mounts/mount_namespaces.7.pdf": (
        "/usr/share/man/man7/mount_namespaces.7.gz",
        "mount_namespaces(7): overview of Linux mount namespaces",
    ),
    "mounts/zlib.pdf": ("/usr/share/doc/nodejs/api/zlib.md", "Node.js API: Zlib"),
    "paths/path.pdf": ("/usr/share/doc/nodejs/api/path.md", "Node.js API: Path"),
    "paths/path_resolution.7.pdf": (
        "/usr/share/man/man7/path_resolution.7.gz",
        "path_resolution(7): how a pathname is resolved to a file",
    ),
    "paths/glob.7.pdf": ("/usr/share/man/man7/glob.7.gz", "glob(7): globbing pathnames"),
    "keys/netlink.7.pdf": (
        "/usr/share/man/man7/netlink.7.gz",
        "netlink(7): communication between kernel and user space",
    ),
    "keys/keyrings.7.pdf": ("/usr/share/man/man7/keyrings.7.gz", "keyrings(7): in-kernel key management and retention"),
    "keys/fanotify.7.pdf": ("/usr/share/man/man7/fanotify.7.gz", "fanotify(7): monitoring filesystem events"),
    "hosts/dgram.pdf": ("/usr/share/doc/nodejs/api/dgram.md", "Node.js API: UDP/datagram sockets"),
    "hosts/os.pdf": ("/usr/share/doc/nodejs/api/os.md", "Node.js API: OS"),
    "hosts/feature_test_macros.7.pdf": (
        "/usr/share/man/man7/feature_test_macros.7.gz",
        "feature_test_macros(7): feature test macros",
    ),
    "programs/strace.1.pdf": ("/usr/share/man/man1/strace.1.gz", "strace(1): trace system calls and signals"),
    "programs/top.1.pdf": ("/usr/share/man/man1/top.1.gz", "top(1): display Linux processes"),
    "programs/unzip.1.pdf": ("/usr/share/man/man1/unzip.1.gz", "unzip(1): list, test and extract ZIP archives"),
    "binaries/elf.5.pdf": ("/usr/share/man/man5/elf.5.gz", "elf(5): format of Executable and Linking Format files"),
    "binaries/magic.5.pdf": ("/usr/share/man/man5/magic.5.gz", "magic(5): file command's magic pattern file"),
    "binaries/x509v3_config.5ssl.pdf": (
        "/usr/share/man/man5/x509v3_config.5ssl.gz",
        "x509v3_config(5ssl): X509 V3 certificate extension configuration format",
    ),
}
# Probes whose manual pages were typeset before tbl drew their tables (their gold pages are of those PDFs).
UNTABLED = {"manpages", "kernel", "cli"}
STYLES = getSampleStyleSheet()
BODY = ParagraphStyle("body", parent=STYLES["BodyText"], fontSize=10, leading=13, spaceAfter=5)
CELL = ParagraphStyle("cell", parent=BODY, fontSize=8, leading=10, spaceAfter=0)
CODE = ParagraphStyle("code", parent=STYLES["Code"], fontSize=8, leading=10)
H1 = ParagraphStyle("h1", parent=STYLES["Heading1"], fontSize=16)
H2 = ParagraphStyle("h2", parent=STYLES["Heading2"], fontSize=12)


def _table(lines: list[str], width: float) -> Table:
    """A box-drawn table as a ruled table: rows between rule lines, cells between bars."""
    rows: list[list[str]] = []
    current: list[list[str]] = []
    for line in lines:
        if line.startswith(("┌", "├", "└", "╞", "┝")):
            if current:
                rows.append([" ".join(" ".join(part).split()) for part in zip(*current, strict=False)])
            current = []
            continue
        cells = [c for c in line.strip().strip("│┃").split("│")]
        current.append(cells)
    if current:
        rows.append([" ".join(" ".join(part).split()) for part in zip(*current, strict=False)])
    return _grid(rows, width)


def _grid(rows: list[list[str]], width: float) -> Table:
    """Rows of cells as a ruled table, columns as wide as their text (within limits)."""
    rows = rows or [[""]]  # a box of rules only
    columns = max(len(r) for r in rows)
    rows = [r + [""] * (columns - len(r)) for r in rows]
    longest = [max(1, max(len(r[i]) for r in rows)) for i in range(columns)]
    shares = [min(n, 60) for n in longest]
    widths = [width * s / sum(shares) for s in shares]
    if min(widths) < 14:  # a column of "X" marks narrower than its padding: give every column a floor
        shares = [max(s, 6) for s in shares]
        widths = [width * s / sum(shares) for s in shares]
    table = Table([[Paragraph(escape(c), CELL) for c in r] for r in rows], colWidths=widths, repeatRows=0)
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black), ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return table


def _heading(block: list[str]) -> Paragraph | None:
    """A one-line block with no closing punctuation, short, starting with a capital or a section number."""
    if len(block) != 1:
        return None
    line = block[0].strip()
    if len(line) > 70 or line.endswith((".", ",", ";", ":", ")")) or not re.match(r"[A-Z0-9]", line):
        return None
    if block[0].startswith(" "):
        return None
    return Paragraph(escape(line), H1 if re.match(r"\d+\.\s", line) or line.isupper() else H2)


def flowables(text: str, width: float) -> list:
    """The document's blocks (split by blank lines) as flowables."""
    out: list = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("┌"):
            j = i
            while j < len(lines) and not lines[j].startswith("└"):
                j += 1
            out += [_table(lines[i : j + 1], width), Spacer(1, 6)]
            i = j + 1
            continue
        if not lines[i].strip() or set(lines[i].strip()) <= set("━─="):
            i += 1
            continue
        block = []
        while i < len(lines) and lines[i].strip() and not lines[i].startswith("┌"):
            block.append(lines[i])
            i += 1
        heading = _heading(block)
        if heading is not None:
            out.append(heading)
        elif block[0].lstrip().startswith(("•", "* ", "- ")) and block[0].startswith(" "):
            items, item = [], []
            for line in block:
                if line.lstrip().startswith(("•", "* ", "- ")):
                    if item:
                        items.append(item)
                    item = [line.lstrip()[1:].strip()]
                else:
                    item.append(line.strip())
            items.append(item)
            out.append(
                ListFlowable(
                    [Paragraph(escape(" ".join(it)), BODY) for it in items], bulletType="bullet", leftIndent=14
                )
            )
        elif all(line.startswith("   ") for line in block) or any(re.search(r"[;{}]\s*$", line) for line in block):
            out.append(Preformatted("\n".join(line.rstrip() for line in block), CODE))
            out.append(Spacer(1, 5))
        else:
            out.append(Paragraph(escape(" ".join(line.strip() for line in block)), BODY))
    return out


_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]|\[([^\]]+)\]\([^)]*\)")


def _inline(text: str) -> str:
    """Markdown's inline marks read as print shows them: links as their text, code and emphasis unmarked."""
    text = _LINK.sub(lambda m: m.group(1) or m.group(2), text)
    return re.sub(r"`([^`]*)`", r"\1", text).replace("**", "")


def markdown_flowables(text: str, width: float) -> list:
    """A Markdown document's blocks as flowables: headings, fenced code, bullet lists, pipe tables, paragraphs;
    comments and link definitions dropped."""
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    out: list = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out += [Preformatted("\n".join(lines[i + 1 : j]), CODE), Spacer(1, 5)]
            i = j + 1
            continue
        if not line.strip() or re.match(r"^\[[^\]]+\]:\s", line):
            i += 1
            continue
        if heading := re.match(r"^(#{1,6})\s+(.*)", line):
            out.append(Paragraph(escape(_inline(heading.group(2))), H1 if len(heading.group(1)) <= 2 else H2))
            i += 1
            continue
        block = [line]  # a line opening with "#" but no heading ("#include <qz.h>") is text
        i += 1
        while i < len(lines) and lines[i].strip() and not re.match(r"```|#{1,6}\s", lines[i]):
            block.append(lines[i])
            i += 1
        if all(b.lstrip().startswith("|") for b in block):
            rows = [[_inline(c.strip()) for c in b.strip().strip("|").split("|")] for b in block]
            rows = [r for r in rows if not all(re.fullmatch(r":?-+:?", c) for c in r)]
            out += [_grid(rows, width), Spacer(1, 6)]
        elif re.match(r"^\s*(?:[*-]|\d+\.)\s", block[0]):
            items: list[list[str]] = []
            for b in block:
                if re.match(r"^\s*(?:[*-]|\d+\.)\s", b):
                    items.append([re.sub(r"^\s*(?:[*-]|\d+\.)\s+", "", b)])
                else:
                    items[-1].append(b.strip())
            out.append(
                ListFlowable(
                    [Paragraph(escape(_inline(" ".join(it))), BODY) for it in items], bulletType="bullet", leftIndent=14
                )
            )
        else:
            text_block = " ".join(b.strip().lstrip("> ") for b in block)
            out.append(Paragraph(escape(_inline(text_block)), BODY))
    return out


def _unwrap(text: str) -> str:
    """A text indented as a whole loses that indent, and a word hyphenated at a line's end is joined again (as a
    typesetter reflowing the paragraph would); a text without either is unchanged."""
    text = textwrap.dedent(text)
    if len(re.findall(r"[a-z]-\n\s*[a-z]", text)) < 20:  # hyphenation is the text's habit, not a compound's break
        return text
    return re.sub(r"([a-z])-\n(\s*)([a-z]\S*)", r"\1\3\n\2", text)


def _man_text(source: str, tables: bool) -> str:
    """A manual page as groff formats it for a terminal (no bold or underline), without its running header and
    footer: headings set apart, each paragraph's own indent removed, words broken at a line's end joined and
    justification's extra spaces squeezed."""
    with gzip.open(source, "rb") as f:
        roff = f.read()
    command = ["groff", *(["-t"] if tables else []), "-man", "-Tutf8", "-rHY=0", "-rLL=100n", "-P-c", "-P-b", "-P-u"]
    lines = subprocess.run(command, input=roff, capture_output=True, check=True).stdout.decode().split("\n")
    out: list[str] = []
    for line in lines[1:-2]:
        indent = len(line) - len(line.lstrip())
        if line.strip() and indent in (0, 3):
            out += ["", line.strip(), ""]  # a section's (column 0) or a subsection's (column 3) heading
        else:
            out.append(line)
    blocks = re.sub(r"\u2010\n\s*", "", "\n".join(out)).split("\n\n")  # a word broken at a line's end, joined
    return "\n\n".join(re.sub(r"(?<=\S) {2,}", " ", textwrap.dedent(b.strip("\n"))) for b in blocks)


def build(source: str, title: str, target: Path) -> None:
    if "/share/man/" in source:
        text = _man_text(source, target.parent.parent.name not in UNTABLED)
    else:
        opener = gzip.open if source.endswith(".gz") else open
        with opener(source, "rt", encoding="utf-8") as f:
            text = f.read()
    if not source.endswith((".md", ".md.gz")) and "/share/man/" not in source:
        text = _unwrap(text)

    def furniture(canvas, doc) -> None:  # a running header and the page number, as printed manuals have
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawString(2 * cm, A4[1] - 1.2 * cm, title)
        canvas.drawRightString(A4[0] - 2 * cm, 1.2 * cm, str(doc.page))
        canvas.restoreState()

    target.parent.mkdir(parents=True, exist_ok=True)
    doc = SimpleDocTemplate(str(target), pagesize=A4, title=title, leftMargin=2 * cm, rightMargin=2 * cm)
    typeset = markdown_flowables if source.endswith(".md") else flowables
    doc.build(typeset(text, doc.width), onFirstPage=furniture, onLaterPages=furniture)


if __name__ == "__main__":
    for name, (source, title) in SOURCES.items():
        probe, pdf = name.split("/")
        build(source, title, PROBES / probe / "pdfs" / pdf)
        print(f"wrote {PROBES / probe / 'pdfs' / pdf}")

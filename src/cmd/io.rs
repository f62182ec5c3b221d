//! The commands' file and stream helpers: inputs from arguments, standard
//! input or a file (each read with the byte limit of `uridiff::input`),
//! output files checked before any work and written atomically, and I/O
//! errors that name the path the user gave and what uridiff was doing.

use std::fmt;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use uridiff::input::{Lines, MAX_INPUT_BYTES, TooLong, read_limited};

use super::error::{Failure, diagnostic};

/// `e`'s own words, without the path a library may have appended: tempfile
/// writes `... at path "/dir/.tmpXXXX"`, the name of its temporary file,
/// which is not the path the user gave.
fn bare(e: &io::Error) -> String {
    if let Some(code) = e.raw_os_error() {
        return io::Error::from_raw_os_error(code).to_string();
    }
    let text = e.to_string();
    match text.find(" at path \"").and_then(|at| text.get(..at)) {
        Some(own) => own.to_owned(),
        None => text,
    }
}

/// `e` with what uridiff was doing in front (`cannot read PATH`), its kind
/// kept (a closed pipe stays a closed pipe).
pub(crate) fn context(e: &io::Error, doing: impl fmt::Display) -> io::Error {
    io::Error::new(e.kind(), format!("{doing}: {}", bare(e)))
}

/// A writer whose errors say what was being written.
#[derive(Debug)]
pub(crate) struct Labeled<W> {
    inner: W,
    what: &'static str,
}

impl<W: Write> Write for Labeled<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner
            .write(buf)
            .map_err(|e| context(&e, format_args!("cannot write {}", self.what)))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner
            .flush()
            .map_err(|e| context(&e, format_args!("cannot write {}", self.what)))
    }
}

impl<W> Labeled<W> {
    /// `inner`, whose errors will say `cannot write WHAT`.
    pub(crate) fn new(inner: W, what: &'static str) -> Self {
        Labeled { inner, what }
    }
}

/// Standard output, locked, whose errors say `cannot write standard
/// output` (a full disk, say). Buffer it where many small writes go.
pub(crate) fn stdout() -> Labeled<io::StdoutLock<'static>> {
    Labeled::new(io::stdout().lock(), "standard output")
}

/// Why bytes are no input: not UTF-8.
fn utf8(bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| format!("not valid UTF-8 ({})", e.utf8_error()))
}

/// The bytes of `--file PATH` (standard input for `-`) as an input, exactly
/// (NULs and a trailing newline kept), read up to [`MAX_INPUT_BYTES`]: the
/// outer error is I/O (the file cannot be read, is a directory or a
/// device, or is over the limit), the inner one says why the bytes are no
/// input (not UTF-8). A pipe is read like a file (`--file <(...)`).
pub(crate) fn read_file(path: &Path) -> io::Result<Result<String, String>> {
    read_named(path, "input")
}

/// [`read_file`] for the `what` of a command (its input, its base), as the
/// messages call it.
fn read_named(path: &Path, what: &str) -> io::Result<Result<String, String>> {
    let doing = || format!("cannot read the {what} file {}", path.display());
    let too_long =
        |t: TooLong| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {t}", doing()));
    if path == Path::new("-") {
        let read = read_limited(io::stdin().lock(), MAX_INPUT_BYTES).map_err(|e| {
            context(
                &e,
                format_args!("cannot read the {what} from standard input"),
            )
        })?;
        return match read {
            Ok(bytes) => Ok(utf8(bytes)),
            Err(t) => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("cannot read the {what} from standard input: {t}"),
            )),
        };
    }
    let (file, meta) = open_input(path, &doing())?;
    match read_limited(file, MAX_INPUT_BYTES).map_err(|e| context(&e, doing()))? {
        Ok(bytes) => Ok(utf8(bytes)),
        Err(mut t) => {
            if meta.is_file() {
                t.bytes = Some(meta.len());
            }
            Err(too_long(t))
        }
    }
}

/// Opens `path` to read inputs from: a regular file or a pipe, never a
/// device (`/dev/zero` would stream forever) or a directory. Errors start
/// with `doing`.
fn open_input(path: &Path, doing: &str) -> io::Result<(fs::File, fs::Metadata)> {
    let file = fs::File::open(path).map_err(|e| context(&e, doing))?;
    let meta = file.metadata().map_err(|e| context(&e, doing))?;
    if !(meta.is_file() || is_fifo(&meta)) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{doing}: not a regular file or a pipe"),
        ));
    }
    Ok((file, meta))
}

/// The base of `--base BASE` or `--base-file PATH` (standard input for
/// `-`, read exactly like `--file`): what carries a base that holds a NUL,
/// which no argument can. `input_file` is the `--file` of the same
/// command: standard input cannot hold both.
pub(crate) fn base(
    base: Option<&str>,
    base_file: Option<&Path>,
    input_file: Option<&Path>,
) -> Result<Option<String>, Failure> {
    let stdin = Path::new("-");
    if base_file == Some(stdin) && input_file == Some(stdin) {
        return Err(Failure::Usage(
            "--base-file - and --file - both read standard input; give one of them a file \
             (/dev/fd/N for another pipe)"
                .to_owned(),
        ));
    }
    match (base, base_file) {
        (Some(b), _) => Ok(Some(b.to_owned())),
        (None, Some(path)) => match read_named(path, "base")? {
            Ok(text) => Ok(Some(text)),
            Err(why) => Err(Failure::Usage(format!(
                "the base in {}: {why}",
                path.display()
            ))),
        },
        (None, None) => Ok(None),
    }
}

#[cfg(unix)]
fn is_fifo(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    meta.file_type().is_fifo()
}

#[cfg(not(unix))]
fn is_fifo(_: &fs::Metadata) -> bool {
    false
}

/// Standard input, line by line as it arrives, each line at most
/// [`MAX_INPUT_BYTES`] long in memory: each line's number and its text,
/// or why it is no input (not UTF-8, or over the limit). A trailing `\r`
/// is dropped.
pub(crate) fn stdin_lines() -> impl Iterator<Item = io::Result<(usize, Result<String, String>)>> {
    text_lines(io::stdin().lock(), "cannot read standard input".to_owned())
}

/// The lines of the file at `path` (a regular file or a pipe; standard
/// input for `-`, as [`read_file`] takes), read like [`stdin_lines`]: each
/// at most [`MAX_INPUT_BYTES`] long in memory, a longer one given as why
/// it is no input, its length said, while the rest are read on. The outer
/// error: the file cannot be opened or is no file.
pub(crate) fn file_lines(
    path: &Path,
) -> io::Result<impl Iterator<Item = io::Result<(usize, Result<String, String>)>>> {
    if path == Path::new("-") {
        let stdin: Box<dyn io::BufRead> = Box::new(io::stdin().lock());
        return Ok(text_lines(stdin, "cannot read standard input".to_owned()));
    }
    let doing = format!("cannot read {}", path.display());
    let (file, _) = open_input(path, &doing)?;
    let file: Box<dyn io::BufRead> = Box::new(io::BufReader::new(file));
    Ok(text_lines(file, doing))
}

/// [`Lines`] of `reader` as text: each line's number and its text, or why
/// it is no input (not UTF-8, or over the limit); a read error says
/// `doing`.
fn text_lines(
    reader: impl io::BufRead,
    doing: String,
) -> impl Iterator<Item = io::Result<(usize, Result<String, String>)>> {
    Lines::new(reader, MAX_INPUT_BYTES).map(move |line| {
        let line = line.map_err(|e| context(&e, &doing))?;
        let text = match line.bytes {
            Ok(bytes) => utf8(bytes),
            Err(too_long) => Err(too_long.to_string()),
        };
        Ok((line.number, text))
    })
}

/// A path that is neither a regular file nor a directory (a FIFO, a
/// device, a socket, or a link to one), as a source not checked: its name
/// and what it is. Such a path is never opened: a FIFO would wait for a
/// writer, a device could stream forever.
pub(crate) fn not_a_file(path: &Path) -> (String, String) {
    let what = match fs::metadata(path) {
        Ok(m) => kind(&m),
        Err(_) => "unreadable",
    };
    (
        path.display().to_string(),
        format!("not a regular file or directory ({what})"),
    )
}

/// What kind of file `meta` describes, in words.
#[cfg(unix)]
fn kind(meta: &fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a device, FIFO or socket"
    }
}

#[cfg(not(unix))]
fn kind(_: &fs::Metadata) -> &'static str {
    "a device, FIFO or socket"
}

/// Says that a command checked nothing, having read `read` inputs (all of
/// them not UTF-8 or over the limit): exit status 2, not a clean 0.
pub(crate) fn nothing_checked(read: usize) {
    if read == 0 {
        diagnostic("nothing was checked: no input (standard input holds no line)");
    } else if read == 1 {
        diagnostic(format_args!(
            "nothing was checked: the input read is not UTF-8 text within the {MAX_INPUT_BYTES}-byte input limit"
        ));
    } else {
        diagnostic(format_args!(
            "nothing was checked: none of the {read} inputs read is UTF-8 text within the {MAX_INPUT_BYTES}-byte input limit"
        ));
    }
}

/// The device and inode of a file, which tell two names of one file apart
/// from two files.
#[cfg(unix)]
fn identity(meta: &fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn identity(_: &fs::Metadata) -> Option<(u64, u64)> {
    None
}

/// An output file (`--out PATH`), checked before any work is done, so that
/// a long run is not lost to a path it cannot write: the directory exists
/// and a file can be created in it, the path (or what a symbolic link there
/// names) is a regular file or nothing yet, never a directory, device,
/// FIFO or socket, and it is none of the inputs. [`Output::write`] then
/// writes a temporary file beside it and renames it into place, so a reader
/// never sees half a report.
///
/// A symbolic link is written through: the file it names is replaced and
/// the link stays a link.
#[derive(Debug)]
pub(crate) struct Output {
    /// The path the user gave, which every message names.
    given: PathBuf,
    /// The file that will be replaced or created.
    target: PathBuf,
    /// The directory that holds it.
    dir: PathBuf,
    /// The mode the written file gets: the replaced file's, or 0644.
    mode: u32,
}

impl Output {
    /// Checks `path` as an output that must not be any of `inputs`.
    pub(crate) fn prepare(path: &Path, inputs: &[PathBuf]) -> Result<Output, Failure> {
        let shown = path.display();
        let target = link_target(path).map_err(|e| {
            context(
                &e,
                format_args!("cannot write --out {shown}: cannot read the link"),
            )
        })?;
        let existing = match fs::metadata(&target) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(context(&e, format_args!("cannot write --out {shown}")).into()),
        };
        if let Some(m) = &existing {
            if !m.is_file() {
                return Err(Failure::Usage(format!(
                    "--out {shown}: not a regular file (a directory, device, FIFO or socket, or a link to one); \
                     a report only replaces a regular file"
                )));
            }
            if let Some(id) = identity(m) {
                let input = inputs.iter().find(|input| {
                    fs::metadata(input)
                        .ok()
                        .and_then(|i| identity(&i))
                        .is_some_and(|i| i == id)
                });
                if let Some(input) = input {
                    return Err(Failure::Usage(format!(
                        "--out {shown} is the input {}: the output would replace what is read",
                        input.display()
                    )));
                }
            }
        }
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        match fs::metadata(&dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(Failure::Usage(format!(
                    "cannot write --out {shown}: {} is not a directory",
                    dir.display()
                )));
            }
            Err(e) => {
                return Err(context(
                    &e,
                    format_args!(
                        "cannot write --out {shown}: the directory {}",
                        dir.display()
                    ),
                )
                .into());
            }
        }
        #[cfg(unix)]
        let mode = {
            use std::os::unix::fs::PermissionsExt;
            existing
                .as_ref()
                .map_or(0o644, |m| m.permissions().mode() & 0o777)
        };
        #[cfg(not(unix))]
        let mode = 0o644;
        let output = Output {
            given: path.to_path_buf(),
            target,
            dir,
            mode,
        };
        // Creating (and dropping) a file is the one sure test that the
        // directory is writable (permissions, a read-only mount, ACLs).
        drop(output.temporary()?);
        Ok(output)
    }

    /// The directory the output goes to (where a spool may go too).
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path the user gave.
    pub(crate) fn path(&self) -> &Path {
        &self.given
    }

    fn temporary(&self) -> io::Result<tempfile::NamedTempFile> {
        let mut builder = tempfile::Builder::new();
        // A temporary file is private (0600); the report it becomes is an
        // ordinary file, readable like anything else the user writes.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(fs::Permissions::from_mode(self.mode));
        }
        builder.tempfile_in(&self.dir).map_err(|e| {
            context(
                &e,
                format_args!(
                    "cannot write --out {}: cannot create a file in {}",
                    self.given.display(),
                    self.dir.display()
                ),
            )
        })
    }

    /// Writes the file: to a temporary file in its directory, renamed into
    /// place once complete.
    pub(crate) fn write(
        self,
        write: impl FnOnce(&mut BufWriter<&fs::File>) -> io::Result<()>,
    ) -> io::Result<()> {
        let tmp = self.temporary()?;
        let failed = |e: &io::Error| {
            context(
                e,
                format_args!("cannot write --out {}", self.given.display()),
            )
        };
        {
            let mut w = BufWriter::new(tmp.as_file());
            write(&mut w).map_err(|e| failed(&e))?;
            w.flush().map_err(|e| failed(&e))?;
        }
        tmp.persist(&self.target).map_err(|e| failed(&e.error))?;
        Ok(())
    }
}

/// The file a path names, following symbolic links; for a dangling link,
/// the file it would create.
fn link_target(path: &Path) -> io::Result<PathBuf> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => match fs::canonicalize(path) {
            Ok(real) => Ok(real),
            Err(_) => {
                let link = fs::read_link(path)?;
                Ok(match path.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                })
            }
        },
        _ => Ok(path.to_path_buf()),
    }
}

/// Writes `path` atomically, with no input to guard: [`Output::prepare`]
/// then [`Output::write`].
pub(crate) fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<&fs::File>) -> io::Result<()>,
) -> Result<(), Failure> {
    Output::prepare(path, &[])?.write(write)?;
    Ok(())
}

/// An anonymous temporary file (gone when closed) to hold output until it
/// can be written in order: beside `output` when there is one (its
/// directory is known to be writable), or in the temporary directory
/// (`TMPDIR`, or `/tmp`).
pub(crate) fn spool(output: Option<&Output>, what: &str) -> io::Result<fs::File> {
    let (dir, named) = match output {
        Some(o) => (o.dir().to_path_buf(), String::new()),
        None => (std::env::temp_dir(), " (TMPDIR)".to_owned()),
    };
    tempfile::tempfile_in(&dir).map_err(|e| {
        context(
            &e,
            format_args!(
                "cannot create a temporary file in {}{named} to hold {what}",
                dir.display()
            ),
        )
    })
}
